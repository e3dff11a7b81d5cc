"""A tiny LLaMA-style decoder, written with plain `torch.nn` so every node of its graph has a name you can read.

    tokens -> embed_tokens -> [ x + self_attn(input_layernorm(x))
                                h + mlp(post_attention_layernorm(h)) ] x n_layers -> norm -> lm_head -> logits

The pieces are the ones LLaMA uses: RMSNorm (no bias, no mean subtraction), causal self-attention with
separate q/k/v/o projections and rotary position embeddings (RoPE), a SwiGLU MLP, no biases anywhere, and
weights drawn from N(0, 0.02²) as in LLaMA's reference initialisation. Parameter names follow the usual
checkpoint layout: `embed_tokens.weight`, `layers.0.self_attn.q_proj.weight`, `layers.0.mlp.gate_proj.weight`,
`norm.weight`, `lm_head.weight`, ...

Attention is written out (matmul, mask, softmax, matmul) instead of calling a fused kernel, so the backward
graph shows `SoftmaxBackward0`, `MaskedFillBackward0` and friends on every device.
"""
import math
import re

import torch
import torch.nn.functional as F
from torch import nn

from .models import seeded


class RMSNorm(nn.Module):
    """x / sqrt(mean(x²) + eps) * weight: rescales each position's vector; the weight starts at ones."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotary(x, theta=10000.0):
    """Rotary position embedding of x [batch, heads, seq, head_dim]: rotates pairs of channels by position."""
    seq, head_dim = x.shape[-2], x.shape[-1]
    half = head_dim // 2
    inv_freq = theta ** (-torch.arange(half, device=x.device, dtype=torch.float32) / half)
    angles = torch.arange(seq, device=x.device, dtype=torch.float32)[:, None] * inv_freq[None, :]
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


class SelfAttention(nn.Module):
    """Causal multi-head self-attention with q/k/v/o projections and RoPE on queries and keys."""

    def __init__(self, dim, n_heads):
        super().__init__()
        if dim % n_heads or (dim // n_heads) % 2:
            raise ValueError(f"dim={dim} must split into {n_heads} heads of an even size")
        self.n_heads = n_heads
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, dim, bias=False)
        self.v_proj = nn.Linear(dim, dim, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        batch, seq, dim = x.shape
        head_dim = dim // self.n_heads

        def heads(t):  # [batch, seq, dim] -> [batch, heads, seq, head_dim]
            return t.view(batch, seq, self.n_heads, head_dim).transpose(1, 2)

        q, k, v = heads(self.q_proj(x)), heads(self.k_proj(x)), heads(self.v_proj(x))
        q, k = rotary(q), rotary(k)
        scores = q @ k.transpose(-2, -1) / math.sqrt(head_dim)
        future = torch.ones(seq, seq, dtype=torch.bool, device=x.device).triu(1)
        weights = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(batch, seq, dim)
        return self.o_proj(out)


class SwiGLU(nn.Module):
    """down_proj(silu(gate_proj(x)) * up_proj(x)): LLaMA's gated MLP."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(nn.Module):
    """One pre-norm block: x + attention(norm(x)), then h + mlp(norm(h))."""

    def __init__(self, dim, n_heads, hidden):
        super().__init__()
        self.input_layernorm = RMSNorm(dim)
        self.self_attn = SelfAttention(dim, n_heads)
        self.post_attention_layernorm = RMSNorm(dim)
        self.mlp = SwiGLU(dim, hidden)

    def forward(self, x):
        h = x + self.self_attn(self.input_layernorm(x))
        return h + self.mlp(self.post_attention_layernorm(h))


class TinyDecoder(nn.Module):
    """A LLaMA-shaped language model: `model(tokens [batch, seq]) -> logits [batch, seq, vocab_size]`."""

    def __init__(self, vocab_size=64, dim=32, n_layers=2, n_heads=4, hidden=None, init_std=0.02):
        super().__init__()
        hidden = hidden or 8 * ((8 * dim // 3 + 7) // 8)   # LLaMA's 8/3 · dim, rounded up to a multiple of 8
        self.config = dict(vocab_size=vocab_size, dim=dim, n_layers=n_layers, n_heads=n_heads, hidden=hidden)
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList(DecoderLayer(dim, n_heads, hidden) for _ in range(n_layers))
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)
        for module in self.modules():
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, mean=0.0, std=init_std)

    def forward(self, tokens):
        h = self.embed_tokens(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(self.norm(h))


def lm_loss(logits, tokens):
    """Next-token cross-entropy: position t predicts token t+1 (mean over all predicted positions)."""
    vocab = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape(-1, vocab), tokens[:, 1:].reshape(-1))


def seeded_decoder(vocab_size=64, dim=32, n_layers=2, n_heads=4, hidden=None, seed=0, init_std=0.02):
    """A TinyDecoder whose initial weights depend only on `seed` (the global RNG is left untouched)."""
    return seeded(lambda: TinyDecoder(vocab_size, dim, n_layers, n_heads, hidden, init_std), seed)


def token_batch(batch_size, seq_len, vocab_size, seed, language_seed=0, branching=4):
    """Synthetic token sequences [batch_size, seq_len] (int64) from a random Markov chain.

    `language_seed` fixes the chain (the "language"): every token has `branching` likely successors, so a
    model can learn it and the loss falls with training. `seed` draws the sequences, so different seeds give
    different batches of the same language.
    """
    chain = torch.Generator().manual_seed(10_000 + language_seed)
    successors = torch.stack([torch.randperm(vocab_size, generator=chain)[:branching] for _ in range(vocab_size)])
    g = torch.Generator().manual_seed(seed)
    tokens = torch.empty(batch_size, seq_len, dtype=torch.int64)
    tokens[:, 0] = torch.randint(0, vocab_size, (batch_size,), generator=g)
    for t in range(1, seq_len):
        pick = torch.randint(0, branching, (batch_size,), generator=g)
        tokens[:, t] = successors[tokens[:, t - 1], pick]
    return tokens


_KINDS = [
    (r"embed_tokens\.", "embed"), (r"\.q_proj\.", "q_proj"), (r"\.k_proj\.", "k_proj"),
    (r"\.v_proj\.", "v_proj"), (r"\.o_proj\.", "o_proj"), (r"\.gate_proj\.", "gate_proj"),
    (r"\.up_proj\.", "up_proj"), (r"\.down_proj\.", "down_proj"), (r"\.input_layernorm\.", "attn_norm"),
    (r"\.post_attention_layernorm\.", "mlp_norm"), (r"^norm\.", "final_norm"), (r"^lm_head\.", "lm_head"),
]


def parameter_kind(name):
    """The kind of a TinyDecoder parameter from its name: "q_proj", "attn_norm", "lm_head", ..."""
    for pattern, kind in _KINDS:
        if re.search(pattern, name):
            return kind
    raise ValueError(f"not a TinyDecoder parameter name: {name!r}")


def layer_index(name):
    """The block a parameter belongs to (0, 1, ...), or None for embed_tokens, norm and lm_head."""
    match = re.match(r"layers\.(\d+)\.", name)
    return int(match.group(1)) if match else None
