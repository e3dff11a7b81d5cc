"""The pre-flight zoo: flights with a known verdict, to test pre-flight checks against.

    for case in cases():                    # every case: healthy ones, bugs, blind spots and false alarms
        flight = case.build()               # a fresh flight (stateful loss functions start empty)
        case.catcher                        # the check that must flag it: "gradients", ..., "ddp"; None if healthy
        case.also                           # other checks that rightly flag it too (a NaN gradient breaks DDP's)

Healthy cases are drawn from current practice (LoRA adapters whose second matrix starts at zero, zero-initialised
residual gates, layer scale at 1e-6 with stochastic depth, normalisation layers, label smoothing, bfloat16
autocast, activation checkpointing, tied embeddings, frozen backbones, warm-up schedules, dropout inside
attention, a VAE, weight normalisation, a GRU and an LSTM, sequences of random lengths padded to the longest in
the batch, a learner slower than the default budget): no check may flag one.
Bugs are the ones that train without an error; each names the one check meant to catch it (and, in `also`, any
other that rightly fails too). Blind spots are bugs that no check of chapter 6 can see, kept so the chapter can
show them and so a check that starts to see one is noticed. False alarms are healthy designs that a check fails, as
the chapter says it does (a loss that draws its own noise, a queue of negatives): the failed row is the user's to
accept, and a check that stops failing one is noticed too.

Every model is small enough for a CPU check in milliseconds, and built with its own seed.
"""
import copy
import math
import os
import random
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence
from torch.utils.checkpoint import checkpoint

from .decoder import TinyDecoder, token_batch
from .models import seeded, seeded_mlp
from .preflight import CheckResult, Flight, SmallConvNet, adam, classification_loss

CHECKS = ("gradients", "graph", "memory", "overfit", "functions", "determinism", "ddp")


@dataclass(frozen=True)
class Case:
    """One flight with a known verdict. kind: "healthy", "bug", "blind spot" or "false alarm"; catcher: the check
    that must flag it (None for a healthy case or a blind spot); also: checks that flag it as well."""
    name: str
    kind: str
    catcher: str | None
    what: str
    build: Callable[[], Flight] = field(repr=False)
    also: tuple = ()
    graded: bool = True  # False: the chapter's hidden tests leave it out (see cases)

    def flagged_by(self):
        """The checks that must fail on this case."""
        return ({self.catcher} if self.catcher else set()) | set(self.also)


# ---------------------------------------------------------------- batches
def points(n):
    """n random points in 10 dimensions and random labels in 0..3: a batch a model can only memorise."""
    return torch.randn(n, 10), torch.randint(0, 4, (n,))


def images(n, size=8):
    """n random 1-channel size x size images and random labels in 0..3."""
    return torch.randn(n, 1, size, size), torch.randint(0, 4, (n,))


def balanced(make_batch):
    """make_batch with its labels replaced by 0, 1, 2, 3, 0, ... in a random order: every class as often as the
    batch allows, so a model that ignores its input cannot fit the label counts (a skewed batch of 8 sometimes
    can, by half)."""
    def make_balanced(n):
        x, _ = make_batch(n)
        return x, torch.randperm(n) % 4
    return make_balanced


def sequences(n, length=6):
    """n random sequences [n, length, 10] and random labels in 0..3."""
    return torch.randn(n, length, 10), torch.randint(0, 4, (n,))


def tokens(n, seq_len=8, vocab_size=16):
    """n sequences of the synthetic language of course.decoder.token_batch, drawn with the global RNG."""
    return token_batch(n, seq_len, vocab_size, seed=int(torch.randint(0, 2**31 - 1, ())))


def next_token_loss(model, batch):
    """Mean next-token cross-entropy of a model mapping tokens [B, T] to logits [B, T, V]."""
    logits = model(batch[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), batch[:, 1:].flatten())


def fly(model, make_batch=points, loss_fn=classification_loss, make_optimizer=adam(1e-2), **options):
    return Flight(model, make_batch, loss_fn, make_optimizer, **options)


def trainable_adamw(lr):
    """make_optimizer over the parameters that require grad (the PEFT and frozen-backbone recipe)."""
    def make_optimizer(params):
        return torch.optim.AdamW([p for p in params if p.requires_grad], lr=lr)
    return make_optimizer


def frozen_names(model):
    return tuple(n for n, p in model.named_parameters() if not p.requires_grad)


# ---------------------------------------------------------------- healthy models
class LoRALinear(nn.Module):
    """A frozen Linear plus a low-rank update (B @ A) x · alpha/rank; B starts at zero, as in LoRA and PEFT."""

    def __init__(self, base, rank=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.empty(rank, base.in_features))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.T @ self.lora_B.T) * self.scale


def lora_mlp():
    model = seeded_mlp([10, 32, 32, 4], seed=11)
    for i, layer in enumerate(model):
        if isinstance(layer, nn.Linear):
            model[i] = LoRALinear(layer)
    return model


class ReZeroMLP(nn.Module):
    """Residual blocks h + alpha·f(h) with alpha starting at 0 (ReZero; adaLN-Zero gates work the same way)."""

    def __init__(self, width=32, depth=3):
        super().__init__()
        self.stem, self.head = nn.Linear(10, width), nn.Linear(width, 4)
        self.blocks = nn.ModuleList(nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Linear(width, width))
                                    for _ in range(depth))
        self.alphas = nn.Parameter(torch.zeros(depth))

    def forward(self, x):
        h = self.stem(x)
        for alpha, block in zip(self.alphas, self.blocks):
            h = h + alpha * block(h)
        return self.head(h)


class ConvNeXtBlock(nn.Module):
    """Depthwise 7x7 conv, LayerNorm, an inverted MLP, a per-channel layer scale starting at 1e-6 and stochastic
    depth (the whole branch dropped for some examples while training), as in ConvNeXt."""

    def __init__(self, dim, layer_scale=1e-6, drop_path=0.1):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim)
        self.pwconv1, self.pwconv2 = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(layer_scale * torch.ones(dim))
        self.drop_path = drop_path

    def forward(self, x):
        h = self.dwconv(x).permute(0, 2, 3, 1)
        h = (self.gamma * self.pwconv2(F.gelu(self.pwconv1(self.norm(h))))).permute(0, 3, 1, 2)
        if self.training and self.drop_path > 0:
            keep = (torch.rand(len(x), 1, 1, 1) >= self.drop_path).to(h.dtype)
            h = h * keep / (1 - self.drop_path)
        return x + h


class TinyConvNeXt(nn.Module):
    def __init__(self, dim=16, depth=2, drop_path=0.1):
        super().__init__()
        self.stem = nn.Conv2d(1, dim, 2, stride=2)
        self.blocks = nn.Sequential(*[ConvNeXtBlock(dim, drop_path=drop_path) for _ in range(depth)])
        self.norm, self.head = nn.LayerNorm(dim), nn.Linear(dim, 4)

    def forward(self, x):
        return self.head(self.norm(self.blocks(self.stem(x)).mean(dim=(2, 3))))


class CheckpointedMLP(nn.Module):
    """Residual MLP blocks recomputed in backward (torch.utils.checkpoint, non-reentrant)."""

    def __init__(self, width=32, depth=3):
        super().__init__()
        self.stem, self.head = nn.Linear(10, width), nn.Linear(width, 4)
        self.blocks = nn.ModuleList(nn.Sequential(nn.LayerNorm(width), nn.Linear(width, width), nn.GELU())
                                    for _ in range(depth))

    def forward(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = h + checkpoint(block, h, use_reentrant=False)
        return self.head(h)


def tied_decoder():
    model = seeded(lambda: TinyDecoder(vocab_size=16, dim=16, n_layers=1, n_heads=2), 12)
    model.lm_head.weight = model.embed_tokens.weight      # one matrix for the input and the output tokens
    return model


def frozen_backbone():
    model = seeded_mlp([10, 64, 64, 4], seed=13)
    for module in (model[0], model[2]):
        module.requires_grad_(False)
    return model


class GPTBlock(nn.Module):
    """Pre-norm causal self-attention (fused, with dropout on the attention weights while training) and an MLP,
    with residual dropout, as in nanoGPT. causal=False leaves the mask out: each position sees the tokens after it."""

    def __init__(self, dim, n_heads, dropout, causal=True):
        super().__init__()
        self.n_heads, self.dropout, self.causal = n_heads, dropout, causal
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim), nn.Dropout(dropout))
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = (z.view(b, t, self.n_heads, d // self.n_heads).transpose(1, 2)
                   for z in self.qkv(self.ln1(x)).split(d, dim=2))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal,
                                           dropout_p=self.dropout if self.training else 0.0)
        x = x + self.resid_dropout(self.proj(y.transpose(1, 2).reshape(b, t, d)))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab_size=16, dim=16, n_heads=2, depth=2, seq_len=8, dropout=0.1, causal=True):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab_size, dim), nn.Embedding(seq_len, dim)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.Sequential(*[GPTBlock(dim, n_heads, dropout, causal) for _ in range(depth)])
        self.ln_f, self.lm_head = nn.LayerNorm(dim), nn.Linear(dim, vocab_size, bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.shape[1])
        return self.lm_head(self.ln_f(self.blocks(self.drop(self.wte(idx) + self.wpe(pos)))))


class CheckpointedGPT(TinyGPT):
    """TinyGPT whose blocks are recomputed in backward (checkpoint(use_reentrant=False)), dropout and all."""

    def forward(self, idx):
        h = self.drop(self.wte(idx) + self.wpe(torch.arange(idx.shape[1])))
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=False)
        return self.lm_head(self.ln_f(h))


class ResBlock(nn.Module):
    """conv-GroupNorm-ReLU-conv-GroupNorm plus the input; the block's last norm weight starts at 0, so each block
    starts as the identity (torchvision's zero_init_residual)."""

    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.norm1, self.norm2 = nn.GroupNorm(4, channels), nn.GroupNorm(4, channels)
        nn.init.zeros_(self.norm2.weight)

    def forward(self, x):
        return F.relu(x + self.norm2(self.conv2(F.relu(self.norm1(self.conv1(x))))))


class TinyResNet(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, channels, 3, padding=1, bias=False), nn.GroupNorm(4, channels),
                                  nn.ReLU())
        self.blocks = nn.Sequential(ResBlock(channels), ResBlock(channels))
        self.head = nn.Linear(channels, 4)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)).mean(dim=(2, 3)))


def decayed_adamw(lr=1e-2, weight_decay=0.1):
    """AdamW with weight decay on matrices only (biases and norm weights in a group without decay)."""
    def make_optimizer(params):
        params = list(params)
        return torch.optim.AdamW([{"params": [p for p in params if p.dim() >= 2], "weight_decay": weight_decay},
                                  {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}], lr=lr)
    return make_optimizer


def warmup_adam(lr=1e-2, warmup=10):
    """Adam whose learning rate warms up linearly from 0 over `warmup` steps, the schedule stepped after every
    optimizer step."""
    def make_optimizer(params):
        optimizer = torch.optim.Adam(params, lr=lr)
        schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, step / warmup))
        optimizer.register_step_post_hook(lambda *_: schedule.step())
        return optimizer
    return make_optimizer


class TinyVAE(nn.Module):
    """A variational autoencoder: it samples its latent code while training (the mean in eval mode)."""

    def __init__(self, dim=10, hidden=32, latent=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * latent))
        self.decoder = nn.Sequential(nn.Linear(latent, hidden), nn.ReLU(), nn.Linear(hidden, dim))

    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=-1)
        z = mu + (0.5 * logvar).exp() * torch.randn_like(mu) if self.training else mu
        return self.decoder(z), mu, logvar


def vae_loss(model, x):
    """Reconstruction error plus the KL divergence to N(0, I), both means over the batch."""
    reconstruction, mu, logvar = model(x)
    kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1).mean()
    return F.mse_loss(reconstruction, x, reduction="none").sum(-1).mean() + kl


def unlabeled_points(n):
    return torch.randn(n, 10)


def weight_normed_mlp():
    model = seeded_mlp([10, 32, 32, 4], seed=14)
    for layer in model:
        if isinstance(layer, nn.Linear):
            nn.utils.parametrizations.weight_norm(layer)
    return model


class GRUClassifier(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.gru, self.head = nn.GRU(10, hidden, batch_first=True), nn.Linear(hidden, 4)

    def forward(self, x):
        return self.head(self.gru(x)[0][:, -1])


class LSTMClassifier(nn.Module):
    """An LSTM classifying sequences. On the CPU its fused kernel also saves a uint8 workspace, whose size the
    kernel rounds: with 32 hidden units and 6 steps, not linear in the batch."""

    def __init__(self, hidden=32):
        super().__init__()
        self.lstm, self.head = nn.LSTM(10, hidden, batch_first=True), nn.Linear(hidden, 4)

    def forward(self, x):
        return self.head(self.lstm(x)[0][:, -1])


class BackwardStateBiLSTM(nn.Module):
    """A bidirectional LSTM classifying from h_n[-1], meant as both directions' final states: on one layer that is
    the backward direction's alone, so the forward direction's weights get exactly zero gradients."""

    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(10, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(hidden, 4)

    def forward(self, x):
        return self.head(self.lstm(x)[1][0][-1])


class AttentionKeeper(nn.Module):
    """One self-attention layer over a sequence, then the mean over positions: it keeps its last attention weights,
    graph and all, for display (`model.attention`), as visualisation code does."""

    def __init__(self, dim=10, classes=4):
        super().__init__()
        self.qkv, self.head, self.attention = nn.Linear(dim, 3 * dim), nn.Linear(dim, classes), None

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        self.attention = (q @ k.transpose(1, 2) / q.shape[-1] ** 0.5).softmax(-1)
        return self.head((self.attention @ v).mean(1))


def spectral_normed_mlp():
    """An MLP whose linear layers go through `nn.utils.spectral_norm`, the hook-based form GAN code uses: each
    forward pass computes the weight again and keeps it on the layer."""
    model = seeded_mlp([10, 32, 32, 4], seed=86)
    for layer in model:
        if isinstance(layer, nn.Linear):
            nn.utils.spectral_norm(layer)
    return model


def looked_at(flight):
    """`flight`, after one forward pass on its model, as a user runs one to see the output before the pre-flight:
    what the model keeps from it is then in the model the checks copy."""
    flight.loss_fn(flight.model, flight.make_batch(flight.batch_size))
    return flight


def padded_sequences(n, longest=12):
    """n sequences of random lengths in 2..longest, padded with zeros to the longest of this batch (dynamic
    padding, as a collate function does it), their lengths, and random labels in 0..3."""
    lengths = torch.randint(2, longest + 1, (n,))
    width = int(lengths.max())
    x = torch.randn(n, width, 10) * (torch.arange(width) < lengths[:, None])[..., None]
    return x, lengths, torch.randint(0, 4, (n,))


class PackedGRUClassifier(GRUClassifier):
    """A GRU that reads each sequence up to its own length (a packed sequence): the padding is never computed."""

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        return self.head(self.gru(packed)[1][-1])


def packed_sequence_loss(model, batch):
    x, lengths, y = batch
    return F.cross_entropy(model(x, lengths), y)


class Recommender(nn.Module):
    """User and item embeddings with sparse gradients (`nn.Embedding(sparse=True)`: only the rows a batch looks up
    get a gradient, as in large recommenders), then an MLP scoring the pair."""

    def __init__(self, users=100, items=200, dim=16):
        super().__init__()
        self.user = nn.Embedding(users, dim, sparse=True)
        self.item = nn.Embedding(items, dim, sparse=True)
        self.score = nn.Sequential(nn.Linear(2 * dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, users, items):
        return self.score(torch.cat([self.user(users), self.item(items)], -1)).squeeze(-1)


def clicks(n):
    """n (user, item, clicked) triples: random ids and random 0/1 targets."""
    return torch.randint(0, 100, (n,)), torch.randint(0, 200, (n,)), torch.randint(0, 2, (n,)).float()


def click_loss(model, batch):
    users, items, clicked = batch
    return F.binary_cross_entropy_with_logits(model(users, items), clicked)


class SparseBagOfWords(nn.Module):
    """A classifier of bag-of-words vectors that come as a sparse COO tensor: `torch.sparse.mm` multiplies them by
    the embedding matrix without ever making them dense, as text and recommender models with large vocabularies do."""

    def __init__(self, vocabulary=50, dim=32, classes=4):
        super().__init__()
        self.embed = nn.Parameter(torch.randn(vocabulary, dim) * 0.1)
        self.bias = nn.Parameter(torch.zeros(dim))
        self.head = nn.Linear(dim, classes)

    def forward(self, words):
        return self.head(torch.relu(torch.sparse.mm(words, self.embed) + self.bias))


def sparse_word_counts(n, vocabulary=50):
    """n documents as word weights, about one word in ten present, in a sparse COO tensor, and random labels."""
    weights = torch.rand(n, vocabulary) * (torch.rand(n, vocabulary) < 0.1)
    return weights.to_sparse(), torch.randint(0, 4, (n,))


def label_smoothed_loss(model, batch):
    x, y = batch
    return F.cross_entropy(model(x), y, label_smoothing=0.1)


def bf16_points(n):
    """`points` in bfloat16, for a model whose weights are bfloat16."""
    x, y = points(n)
    return x.bfloat16(), y


def bf16_mlp():
    """An MLP with LayerNorm whose weights are bfloat16 (no float32 master copy): an update of AdamW at lr 1e-3 is
    below half the spacing of bfloat16 numbers near the LayerNorm scale's 1.0, and rounds away."""
    return seeded(lambda: nn.Sequential(nn.Linear(10, 32), nn.LayerNorm(32), nn.ReLU(), nn.Linear(32, 4)), 85).to(
        torch.bfloat16)


def float_classification_loss(model, batch):
    """Cross-entropy of a model that computes in low precision, read in float32."""
    return classification_loss(model, batch).float()


def bf16_next_token_loss(model, batch):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        return next_token_loss(model, batch)


class TwoTaskNet(nn.Module):
    """A shared body with a class head and a regression head, and one learned log-variance per task that only the
    loss reads (uncertainty weighting, Kendall et al. 2018): a parameter used outside `forward`."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 32), nn.Tanh())
        self.classes, self.value = nn.Linear(32, 4), nn.Linear(32, 1)
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        h = self.body(x)
        return self.classes(h), self.value(h).squeeze(-1)


class SeedKeyedNoise(nn.Module):
    """An MLP that, while training, adds noise to its hidden layer from a generator it seeds with
    `torch.initial_seed()` at every forward pass (noise that the run's seed reproduces): it draws nothing from the
    global generator, yet passes under two seeds differ."""

    def __init__(self):
        super().__init__()
        self.body, self.head = nn.Sequential(nn.Linear(10, 32), nn.Tanh()), nn.Linear(32, 4)

    def forward(self, x):
        h = self.body(x)
        if self.training:
            h = h + 0.1 * torch.randn(h.shape, generator=torch.Generator().manual_seed(torch.initial_seed()))
        return self.head(h)


def two_task_points(n):
    x, y = points(n)
    return x, y, x[:, :2].sum(-1)


def uncertainty_weighted_loss(model, batch):
    x, y, target = batch
    logits, value = model(x)
    log_vars = getattr(model, "module", model).log_vars        # the same loss with or without DDP around the model
    losses = torch.stack([F.cross_entropy(logits, y), F.mse_loss(value, target)])
    return (torch.exp(-log_vars) * losses + log_vars).sum()


def padded_points(n):
    """Points with a mask of real rows spread through the batch (one row in three is padding)."""
    x, y = points(n)
    return x, y, torch.arange(n) % 3 != 2


def global_masked_mean(model, batch):
    """The mean over the real rows of the global batch, as token-level losses are normalised under DDP: each
    process sums its real rows' losses and divides by the real rows of all processes, all-reduced; DDP then averages
    the gradients over the processes, so the sum is scaled by their number."""
    x, y, keep = batch
    per_row = F.cross_entropy(model(x), y, reduction="none")
    count, processes = keep.sum(), 1
    if torch.distributed.is_initialized():
        torch.distributed.all_reduce(count)
        processes = torch.distributed.get_world_size()
    return (per_row * keep).sum() * processes / count


class MultiScaleConvNet(SmallConvNet):
    """SmallConvNet trained at several scales (YOLO-style): in training mode each batch is resized to a side drawn
    from 6, 8 or 12, so what a forward pass saves depends on a draw."""

    def forward(self, x):
        if self.training:
            side = (6, 8, 12)[torch.randint(3, ()).item()]
            x = F.interpolate(x, size=(side, side), mode="bilinear", align_corners=False)
        return super().forward(x)


class FusedDropout(torch.autograd.Function):
    """Dropout as one Function, as fused kernels do: the mask is drawn in forward and saved for backward."""

    @staticmethod
    def forward(ctx, x, p):
        mask = (torch.rand_like(x) >= p).to(x.dtype) / (1 - p)
        ctx.save_for_backward(mask)
        return x * mask

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        return grad * mask, None


class FusedDropoutMLP(nn.Module):
    """fc1, ReLU, FusedDropout(0.1) in training mode, fc2."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(10, 32), nn.Linear(32, 4)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        return self.fc2(FusedDropout.apply(h, 0.1) if self.training else h)


def _fused_dropout():
    inputs = (torch.randn(3, 4, generator=torch.Generator().manual_seed(4)), 0.1)
    return fly(seeded(FusedDropoutMLP, 73), functions=((FusedDropout, inputs),))


class Top1MoE(nn.Module):
    """Switch-style top-1 routing over 8 experts, each row through the expert it picked, scaled by its gate: an
    expert that no row of a batch picks is not in that batch's graph."""

    def __init__(self, experts=8):
        super().__init__()
        self.router = nn.Linear(10, experts)
        self.experts = nn.ModuleList(nn.Linear(10, 4) for _ in range(experts))

    def route(self, x):
        """Each row's gate and the expert it picked."""
        return self.router(x).softmax(-1).max(-1)

    def forward(self, x):
        gate, choice = self.route(x)
        out = torch.zeros(len(x), 4)
        for e in choice.unique().tolist():
            rows = (choice == e).nonzero(as_tuple=True)[0]
            out = out.index_add(0, rows, self.experts[e](x[rows]) * gate[rows, None])
        return out


class TaskHeads(nn.Module):
    """A shared trunk and one head per task; every batch comes from one task, drawn at random (MT-DNN's task
    sampling), so a batch reaches one head."""

    def __init__(self, tasks=3):
        super().__init__()
        self.trunk = nn.Linear(10, 16)
        self.heads = nn.ModuleList(nn.Linear(16, 4) for _ in range(tasks))

    def forward(self, x, task):
        return self.heads[task](torch.relu(self.trunk(x)))


def task_points(n, tasks=3):
    """n random points, labels in 0..3, and the batch's task id (one for all rows), drawn at random."""
    x, y = points(n)
    return x, y, torch.full((n,), torch.randint(tasks, ()).item())


def task_loss(model, batch):
    x, y, task = batch
    return F.cross_entropy(model(x, task[0].item()), y)


class MixedTaskHeads(TaskHeads):
    """A shared trunk and one head per task, every head computed for every row; each row reads its own task's head.
    A batch of 8 rows over 12 tasks leaves some heads in the graph with an exactly zero gradient (a dense mixture
    of experts, whose gates are 0 for the experts a row did not pick, does the same)."""

    def __init__(self, tasks=12):
        super().__init__(tasks)

    def forward(self, x, task):
        h = torch.relu(self.trunk(x))
        every = torch.stack([head(h) for head in self.heads], 1)      # [B, tasks, 4]
        return every[torch.arange(len(x)), task]


def mixed_task_points(n, tasks=12):
    """n random points, labels in 0..3, and each row's own task id, drawn at random."""
    x, y = points(n)
    return x, y, torch.randint(tasks, (n,))


def mixed_task_loss(model, batch):
    x, y, task = batch
    return F.cross_entropy(model(x, task), y)


class LayerDropMLP(nn.Module):
    """Residual layers that training skips at random, each for the whole batch, with probability 0.2 (LayerDrop)."""

    def __init__(self, p=0.2):
        super().__init__()
        self.inp, self.head = nn.Linear(10, 16), nn.Linear(16, 4)
        self.layers = nn.ModuleList(nn.Linear(16, 16) for _ in range(3))
        self.p = p

    def forward(self, x):
        h = self.inp(x)
        for layer in self.layers:
            if self.training and torch.rand(()).item() < self.p:
                continue
            h = h + torch.relu(layer(h))
        return self.head(h)


_LOADED = torch.utils.data.TensorDataset(torch.randn(64, 10, generator=torch.Generator().manual_seed(2)),
                                         torch.randint(0, 4, (64,), generator=torch.Generator().manual_seed(3)))


def loader_points(n):
    """n of 64 fixed points with their labels, drawn as a shuffling DataLoader draws them: a list [x, y]."""
    return next(iter(torch.utils.data.DataLoader(_LOADED, batch_size=n, shuffle=True)))


def tiny_decoder(seed=10):
    return seeded(lambda: TinyDecoder(vocab_size=16, dim=16, n_layers=1, n_heads=2), seed)


def _lora():
    model = lora_mlp()
    return fly(model, make_optimizer=trainable_adamw(1e-2), frozen=frozen_names(model))


def _frozen_backbone():
    model = frozen_backbone()
    return fly(model, make_optimizer=trainable_adamw(1e-2), frozen=frozen_names(model))


class InPlaceLeakyReLU(torch.autograd.Function):
    """A leaky ReLU that overwrites its input, as in-place activations do to save memory (ctx.mark_dirty): its
    backward reads the output, whose sign is the input's."""

    @staticmethod
    def forward(ctx, x, slope):
        ctx.mark_dirty(x)
        x.mul_(torch.where(x >= 0, 1.0, slope).to(x.dtype))
        ctx.slope = slope
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * torch.where(y >= 0, 1.0, ctx.slope).to(grad.dtype), None


class InPlaceLeakyMLP(nn.Module):
    """fc1, InPlaceLeakyReLU(0.01), fc2."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(10, 32), nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(InPlaceLeakyReLU.apply(self.fc1(x), 0.01))


def _in_place_function():
    inputs = (torch.randn(3, 4, generator=torch.Generator().manual_seed(5)), 0.01)
    return fly(seeded(InPlaceLeakyMLP, 85), functions=((InPlaceLeakyReLU, inputs),))


def loss_with_parts(model, batch):
    """Cross-entropy plus a small logit penalty, returned with its parts attached for a logger; the total is one of
    them, so the loss, its dict and its graph form a reference cycle."""
    x, y = batch
    logits = model(x)
    parts = {"cross_entropy": F.cross_entropy(logits, y), "logit_penalty": 1e-3 * logits.pow(2).mean()}
    parts["total"] = loss = parts["cross_entropy"] + parts["logit_penalty"]
    loss.parts = parts
    return loss


HEALTHY = [
    Case("mlp", "healthy", None, "an MLP classifying random points (course.preflight.mlp_flight)",
         lambda: fly(seeded_mlp([10, 32, 32, 4], seed=1))),
    Case("decoder", "healthy", None, "the tiny LLaMA-style decoder of chapters 4 and 5 on its synthetic language",
         lambda: fly(tiny_decoder(), make_batch=tokens, loss_fn=next_token_loss, batch_size=4)),
    Case("convnet", "healthy", None, "a small conv net classifying random images",
         lambda: fly(seeded(SmallConvNet, 2), make_batch=images, make_optimizer=adam(3e-2))),
    Case("lora", "healthy", None, "LoRA adapters on a frozen MLP: B starts at zero, so A's gradient is exactly zero "
         "until B has moved", _lora),
    Case("rezero", "healthy", None, "residual blocks behind gates that start at 0 (ReZero, adaLN-Zero)",
         lambda: fly(seeded(ReZeroMLP, 3))),
    Case("convnext", "healthy", None, "ConvNeXt blocks: layer scale 1e-6 and stochastic depth 0.1",
         lambda: fly(seeded(TinyConvNeXt, 4), make_batch=images)),
    Case("rare-drop-path", "healthy", None, "three ConvNeXt blocks with stochastic depth 0.02: two seeded passes "
         "may keep every branch and still the model is random", lambda: fly(seeded(lambda: TinyConvNeXt(depth=3,
         drop_path=0.02), 4), make_batch=images)),
    Case("zero-init-resnet", "healthy", None, "a GroupNorm ResNet whose blocks start as the identity (last norm "
         "weight 0)", lambda: fly(seeded(TinyResNet, 5), make_batch=images)),
    Case("label-smoothing", "healthy", None, "cross-entropy with label smoothing 0.1: the loss cannot reach 0",
         lambda: fly(seeded_mlp([10, 32, 32, 4], seed=6), loss_fn=label_smoothed_loss)),
    Case("bf16-autocast", "healthy", None, "the decoder's forward under bfloat16 autocast",
         lambda: fly(tiny_decoder(7), make_batch=tokens, loss_fn=bf16_next_token_loss, batch_size=4)),
    Case("bf16-weights", "healthy", None, "an MLP with LayerNorm trained in bfloat16 weights by AdamW at lr 1e-3: "
         "the LayerNorm scale gets gradients but its updates round away", lambda: fly(
             bf16_mlp(), make_batch=bf16_points, loss_fn=float_classification_loss,
             make_optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3))),
    Case("checkpointing", "healthy", None, "residual blocks recomputed in backward (activation checkpointing)",
         lambda: fly(seeded(CheckpointedMLP, 8))),
    Case("tied-embeddings", "healthy", None, "a decoder whose output layer is its token embedding",
         lambda: fly(tied_decoder(), make_batch=tokens, loss_fn=next_token_loss, batch_size=4)),
    Case("frozen-backbone", "healthy", None, "a frozen backbone (listed in frozen) and a new head",
         _frozen_backbone),
    Case("warmup", "healthy", None, "Adam with a learning rate that warms up from 0 over 10 steps",
         lambda: fly(seeded_mlp([10, 32, 32, 4], seed=9), make_optimizer=warmup_adam())),
    Case("slow-learner", "healthy", None, "Adam at 1e-3 on the conv net: it needs a few hundred steps on one batch",
         lambda: fly(seeded(SmallConvNet, 15), make_batch=images, make_optimizer=adam(1e-3))),
    Case("gpt-dropout", "healthy", None, "a nanoGPT-style model with dropout in attention and on residuals",
         lambda: fly(seeded(TinyGPT, 16), make_batch=tokens, loss_fn=next_token_loss, batch_size=4)),
    Case("checkpointed-dropout", "healthy", None, "the nanoGPT-style model with its blocks recomputed in backward "
         "(activation checkpointing): the recomputation must see dropout off too",
         lambda: fly(seeded(CheckpointedGPT, 62), make_batch=tokens, loss_fn=next_token_loss, batch_size=4)),
    Case("adamw-groups", "healthy", None, "AdamW with weight decay on matrices only (two parameter groups)",
         lambda: fly(tiny_decoder(17), make_batch=tokens, loss_fn=next_token_loss, batch_size=4,
                     make_optimizer=decayed_adamw())),
    Case("vae", "healthy", None, "a VAE that samples its latent code while training; the batch is one tensor",
         lambda: fly(seeded(TinyVAE, 18), make_batch=unlabeled_points, loss_fn=vae_loss)),
    Case("weight-norm", "healthy", None, "an MLP with weight normalisation (torch.nn.utils.parametrizations)",
         lambda: fly(weight_normed_mlp())),
    Case("gru", "healthy", None, "a GRU classifying sequences",
         lambda: fly(seeded(GRUClassifier, 19), make_batch=sequences)),
    Case("lstm", "healthy", None, "an LSTM classifying sequences (on the CPU its kernel saves a uint8 workspace "
         "whose size is not linear in the batch)", lambda: fly(seeded(LSTMClassifier, 70), make_batch=sequences)),
    Case("learned-loss-weights", "healthy", None, "two tasks weighted by learned log-variances that only the loss "
         "reads, through model.module under DDP", lambda: fly(seeded(TwoTaskNet, 61), make_batch=two_task_points,
                                                                loss_fn=uncertainty_weighted_loss)),
    Case("global-row-mean", "healthy", None, "padded rows left out of a mean over the real rows of the whole batch, "
         "their count all-reduced under DDP; a batch of 7 that two processes split into 4 and 3 rows",
         lambda: fly(two_path(seed=64), make_batch=padded_points, loss_fn=global_masked_mean, batch_size=7)),
    Case("seed-keyed-noise", "healthy", None, "noise on a hidden layer from a generator seeded with "
         "torch.initial_seed() at each forward pass: no draw from the global generator, yet another seed gives other "
         "noise", lambda: fly(seeded(SeedKeyedNoise, 72))),
    Case("sync-batchnorm", "healthy", None, "the BatchNorm MLP with nn.SyncBatchNorm, which shares the batch "
         "statistics over the processes", lambda: fly(sync_batchnorm_mlp())),
    Case("sparse-embeddings", "healthy", None, "a recommender whose embeddings have sparse gradients "
         "(nn.Embedding(sparse=True)), trained by plain SGD, which takes them as they come",
         lambda: fly(seeded(Recommender, 71), make_batch=clicks, loss_fn=click_loss,
                     make_optimizer=lambda p: torch.optim.SGD(p, lr=0.5))),
    Case("sparse-input", "healthy", None, "bag-of-words documents that come as a sparse COO tensor, multiplied "
         "by the embedding matrix with torch.sparse.mm",
         lambda: fly(seeded(SparseBagOfWords, 167), make_batch=sparse_word_counts), graded=False),
    Case("multi-scale", "healthy", None, "a conv net trained at several scales: each batch resized to a side drawn "
         "at random (6, 8 or 12)", lambda: fly(seeded(MultiScaleConvNet, 74), make_batch=images)),
    Case("fused-dropout", "healthy", None, "dropout written as one autograd Function, as fused kernels are: it draws "
         "a new mask at every call, and it is listed in functions", _fused_dropout),
    Case("top1-moe", "healthy", None, "a mixture of 8 experts with top-1 routing: a batch of 8 rows may leave an "
         "expert out of its graph", lambda: fly(seeded(Top1MoE, 79))),
    Case("task-heads", "healthy", None, "one head per task, one task per batch (task sampling): a batch reaches one "
         "head", lambda: fly(seeded(TaskHeads, 80), make_batch=task_points, loss_fn=task_loss)),
    Case("mixed-task-batch", "healthy", None, "one head per task, every head computed for every row, each row "
         "reading its own task's: a batch of 8 rows over 12 tasks leaves some heads with an exactly zero gradient",
         lambda: fly(seeded(MixedTaskHeads, 83), make_batch=mixed_task_points, loss_fn=mixed_task_loss)),
    Case("layer-drop", "healthy", None, "residual layers skipped at random for the whole batch (LayerDrop 0.2)",
         lambda: fly(seeded(LayerDropMLP, 81))),
    Case("dataloader-batches", "healthy", None, "batches from a shuffling DataLoader, which collates them into "
         "lists [x, y]", lambda: fly(seeded_mlp([10, 32, 32, 4], seed=82), make_batch=loader_points)),
    Case("dynamic-padding", "healthy", None, "a GRU over packed sequences of random lengths, padded to the longest "
         "in their batch: a batch's shape varies from draw to draw",
         lambda: fly(seeded(PackedGRUClassifier, 60), make_batch=padded_sequences, loss_fn=packed_sequence_loss)),
    Case("kept-attention", "healthy", None, "self-attention that keeps its last attention weights, graph and all, "
         "for display, after the user's first forward pass (copy.deepcopy refuses such a model: the checks copy "
         "with copy_model)", lambda: looked_at(fly(seeded(AttentionKeeper, 87), make_batch=sequences))),
    Case("spectral-norm", "healthy", None, "an MLP under the hook-based nn.utils.spectral_norm of GAN code, after "
         "the user's first forward pass (the weight it computed is kept on each layer)",
         lambda: looked_at(fly(spectral_normed_mlp()))),
    Case("loss-keeps-its-parts", "healthy", None, "a loss that keeps a dict of its parts for logging, the total "
         "among them: each step's graph lives in a reference cycle until Python's garbage collector frees it",
         lambda: fly(two_path(seed=84), loss_fn=loss_with_parts)),
    Case("in-place-function", "healthy", None, "a leaky ReLU written as an autograd Function that overwrites its "
         "input (ctx.mark_dirty), listed in functions", _in_place_function),
]


# ---------------------------------------------------------------- broken models
class TwoPath(nn.Module):
    """Two branches added at the output: fc1 -> fc2, and side1 -> side2."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(10, 32), nn.Linear(32, 4)
        self.side1, self.side2 = nn.Linear(10, 32), nn.Linear(32, 4)

    def main(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

    def side(self, x):
        return self.side2(torch.relu(self.side1(x)))

    def forward(self, x):
        return self.main(x) + self.side(x)


def two_path(cls=TwoPath, seed=20):
    return seeded(cls, seed)


class DeadReLU(TwoPath):
    def __init__(self):
        super().__init__()
        nn.init.constant_(self.fc1.bias, -10.0)          # every unit of fc1 is negative for every input


class SqrtWhere(TwoPath):
    def main(self, x):
        h = self.fc1(x)
        # square-root compression of the positive part: where() hides sqrt(h < 0) = NaN in the forward, but its
        # backward still multiplies the NaN derivative by 0
        return self.fc2(torch.relu(torch.where(h > 0, h.sqrt(), h)))


class _ScaleGrad(torch.autograd.Function):
    """The identity; its backward multiplies the gradient by `factor`."""

    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.factor, None


class GradScaled(TwoPath):
    """A gradient-scaling layer on the side branch (a domain-adversarial recipe), its factor set wrong."""
    factor = 1e4

    def side(self, x):
        return self.side2(torch.relu(_ScaleGrad.apply(self.side1(x), self.factor)))


class GradScaledZero(GradScaled):
    factor = 0.0


class Detached(TwoPath):
    def forward(self, x):
        return self.main(x) + self.side(x).detach()


class NoGradLayer(TwoPath):
    def main(self, x):
        with torch.no_grad():
            h = torch.relu(self.fc1(x))
        return self.fc2(h)


class MaskedNewRows(TwoPath):
    """fc1 grown by 8 units, and only the new rows meant to train: a gradient hook multiplies fc1.weight's gradient
    by a mask of the rows to train, which is all zeros (the new rows were appended, but the mask marks none)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("new_rows", torch.zeros(self.fc1.out_features, 1))   # meant: 1 for the last 8
        self.fc1.weight.register_hook(lambda g: g * self.new_rows)


class DataWrite(nn.Module):
    """tanh saves its output for backward; a write through .data changes it behind autograd's back."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(10, 32), nn.Linear(32, 4)

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        h.data.mul_(0.5)
        return self.fc2(h)


class MaxNormInForward(DataWrite):
    """A max-norm constraint applied inside forward, through .data, after fc2 saved its weight."""

    def forward(self, x):
        out = self.fc2(torch.relu(self.fc1(x)))
        self.fc2.weight.data.clamp_(-0.05, 0.05)
        return out


class PlainTensorWeight(nn.Module):
    """A weight kept as a plain tensor attribute: trained by autograd, unknown to parameters() and the optimizer."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 32)
        self.w2 = torch.randn(4, 32, requires_grad=True)

    def forward(self, x):
        return torch.relu(self.fc1(x)) @ self.w2.T


class PythonListLayers(nn.Module):
    """Hidden layers kept in a Python list instead of an nn.ModuleList."""

    def __init__(self):
        super().__init__()
        self.inp, self.out = nn.Linear(10, 32), nn.Linear(32, 4)
        self.hidden = [nn.Linear(32, 32) for _ in range(2)]

    def forward(self, x):
        h = torch.relu(self.inp(x))
        for layer in self.hidden:
            h = torch.relu(layer(h))
        return self.out(h)


class DetachedEmbeddings(TinyDecoder):
    def forward(self, tokens):
        h = self.embed_tokens(tokens).detach()
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(self.norm(h))


class ItemTemperature(TwoPath):
    """A learned temperature read with .item(): a Python float, so the loss never reaches it."""

    def __init__(self):
        super().__init__()
        self.temperature = nn.Parameter(torch.ones(()))

    def forward(self, x):
        return (self.main(x) + self.side(x)) / self.temperature.item()


class HandLinear(torch.autograd.Function):
    """x Wᵀ + b written by hand, as in PyTorch's "Extending torch.autograd" example, with one index wrong: the
    weight's gradient is computed when ctx.needs_input_grad[0] (the input's flag) holds, not [1]."""

    @staticmethod
    def forward(ctx, x, weight, bias):
        ctx.save_for_backward(x, weight)
        return x @ weight.T + bias

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        grad_x = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_x, grad_weight = grad @ weight, grad.T @ x
        if ctx.needs_input_grad[2]:
            grad_bias = grad.sum(0)
        return grad_x, grad_weight, grad_bias


class HandLinearFirst(TwoPath):
    """fc1 through HandLinear: as a first layer its input needs no gradient, so its weight gets None. The node is
    reached from the loss, and nothing trains it."""

    def main(self, x):
        return self.fc2(torch.relu(HandLinear.apply(x, self.fc1.weight, self.fc1.bias)))


class BatchAttention(nn.Module):
    """Every example attends to every other one: a [B, B] score matrix."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(10, 16), nn.Linear(16, 4)

    def forward(self, x):
        h = self.fc1(x)
        return self.fc2((h @ h.T).softmax(-1) @ h)


class FeatureTap(TwoPath):
    """A forward hook left in from debugging: it collects fc1's outputs, graph and all."""

    def __init__(self):
        super().__init__()
        self.taps = []
        self.fc1.register_forward_hook(lambda module, inputs, output: self.taps.append(output))


class CachedBias(TwoPath):
    """A learned bias computed from its table on the first call and cached: every step's graph shares the cached
    nodes, which keep the first step's graph alive (and the bias at the table's first values) for good."""

    def __init__(self):
        super().__init__()
        self.table, self.cached = nn.Parameter(0.1 * torch.randn(3, 4)), None

    def forward(self, x):
        if self.cached is None:
            self.cached = self.table.sum(0)           # its backward saves nothing: no error in step 2
        return super().forward(x) + self.cached


class Blind(nn.Module):
    """Ignores its input: one learned vector of logits for every example."""

    def __init__(self):
        super().__init__()
        self.logits = nn.Parameter(0.1 * torch.randn(4))

    def forward(self, x):
        return self.logits.expand(len(x), 4)


class ChannelStandardised(SmallConvNet):
    """Standardises each pixel over the channel axis, of one-channel images: every input becomes 0."""

    def forward(self, x):
        x = (x - x.mean(1, keepdim=True)) / (x.std(1, keepdim=True, correction=0) + 1e-5)
        return super().forward(x)


class OSDropout(TwoPath):
    """Dropout whose mask comes from a generator seeded by the operating system."""

    def main(self, x):
        h = torch.relu(self.fc1(x))
        if self.training:
            g = torch.Generator()
            g.seed()
            h = h * (torch.rand(h.shape, generator=g) > 0.1) / 0.9
        return self.fc2(h)


class ProcessDependentBackward(TwoPath):
    """A backward whose last digits depend on the process, as cuDNN's benchmark mode picks each convolution's
    kernel per process by timing them, so the sums run in another order: in any process but the one that built the
    model, the gradient through fc1 comes out 5e-5 larger. The losses differ by a few float32 roundings, always, and
    far less than any tolerance (and than a DDP check's)."""

    def __init__(self):
        super().__init__()
        self.home = os.getpid()

    def main(self, x):
        scale = 1.0 if os.getpid() == self.home else 1 + 5e-5
        return self.fc2(_ScaleGrad.apply(torch.relu(self.fc1(x)), scale))


class ScaleRemadeInForward(TwoPath):
    """A max-norm constraint on a learned output scale written as `self.scale = nn.Parameter(...)` inside forward:
    every call registers a new Parameter. The optimizer, made before, holds the first one, which nothing reads after
    the first call; the new ones get gradients that no optimizer applies."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))

    def forward(self, x):
        self.scale = nn.Parameter(self.scale.detach().clamp(max=2.0))
        return super().forward(x) * self.scale


class HeadMadeOnFirstCall(TwoPath):
    """A projection made on the first forward call ("the input width is only known then"): registered and reached,
    but the optimizer was made before it existed."""

    def forward(self, x):
        h = super().forward(x)
        if not hasattr(self, "proj"):
            self.proj = nn.Linear(h.shape[1], 4)
        return self.proj(h)


def log_likelihood_loss(model, batch):
    """A hand-written negative log-likelihood that forgot its minus sign: the log-likelihood itself is minimised."""
    x, y = batch
    return F.log_softmax(model(x), dim=1).gather(1, y[:, None]).mean()


class OSNoiseSGD(torch.optim.SGD):
    """SGD plus gradient noise drawn from a generator seeded by the operating system."""

    @torch.no_grad()
    def step(self, closure=None):
        g = torch.Generator()
        g.seed()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.grad.add_(torch.randn(p.shape, generator=g) * 1e-3)
        return super().step(closure)


CLASS_NAMES = ("cat", "dog", "bird", "fish", "frog", "horse", "ship", "truck", "plane", "car", "deer", "bear")


def named_points(n):
    """Points whose labels are class names, mapped to ids through a set: the ids follow the hash seed."""
    names = [CLASS_NAMES[i] for i in torch.randint(0, len(CLASS_NAMES), (n,)).tolist()]
    ids = {name: i for i, name in enumerate(set(CLASS_NAMES))}
    return torch.randn(n, 10), torch.tensor([ids[name] for name in names])


_POOL = torch.randn(64, 10, generator=torch.Generator().manual_seed(0))
_POOL_LABELS = torch.randint(0, 4, (64,), generator=torch.Generator().manual_seed(1))


def system_shuffled_points(n):
    """Rows of a fixed data set, in an order drawn from the operating system (random.SystemRandom)."""
    rows = random.SystemRandom().sample(range(len(_POOL)), n)
    return _POOL[rows], _POOL_LABELS[rows]


def numpy_noise_loss(model, batch):
    return classification_loss(model, batch) + float(np.random.default_rng().normal()) * 1e-3


def saliency_penalised_loss(model, batch):
    """Cross-entropy plus a penalty on the input gradient of the true class's logit, taken with
    torch.autograd.grad(create_graph=True) inside the step: DDP's gradients come out wrong (pytorch/pytorch#47562)."""
    x, y = batch
    x.requires_grad_()
    logits = model(x)
    (saliency,) = torch.autograd.grad(logits.gather(1, y[:, None]).sum(), x, create_graph=True)
    return F.cross_entropy(logits, y) + 0.01 * saliency.abs().sum(-1).mean()


def sum_loss(model, batch):
    x, y = batch
    return F.cross_entropy(model(x), y, reduction="sum")


def bf16_sum_loss(model, batch):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        return sum_loss(model, batch)


def over_constant_batch(model, batch):
    """The summed loss divided by the configured batch size, 8, rather than by the rows it was given."""
    x, y = batch
    return F.cross_entropy(model(x), y, reduction="sum") / 8


def world_scaled_loss(model, batch):
    """'DDP averages, so multiply by the number of processes': wrong, DDP's average is already the batch mean."""
    loss = classification_loss(model, batch)
    return loss * torch.distributed.get_world_size() if torch.distributed.is_initialized() else loss


def masked_points(n):
    """Points with a mask of real rows (like padding): the first n // 2 + 1 are real."""
    x, y = points(n)
    keep = torch.zeros(n, dtype=torch.bool)
    keep[: n // 2 + 1] = True
    return x, y, keep


def local_masked_mean(model, batch):
    """The mean over the real rows that this process holds: each process divides by its own count."""
    x, y, keep = batch
    per_row = F.cross_entropy(model(x), y, reduction="none")
    return (per_row * keep).sum() / keep.sum()


def batchnorm_mlp():
    return seeded(lambda: nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 4)), 21)


def sync_batchnorm_mlp():
    """The BatchNorm MLP, made for DDP as PyTorch recommends: nn.SyncBatchNorm.convert_sync_batchnorm, so that the
    processes normalise by the statistics of the whole batch."""
    return nn.SyncBatchNorm.convert_sync_batchnorm(batchnorm_mlp())


class BatchNormStemTransformer(nn.Module):
    """A BatchNorm stem, then a Transformer layer with its default dropout of 0.1, in its attention too: each point
    as two tokens of 8."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(10, 16), nn.BatchNorm1d(16))
        self.block = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        return self.head(self.block(self.stem(x).view(-1, 2, 8)).flatten(1))


def weighted_points(n):
    """Points, labels, and a weight per example kept as a column [n, 1] (as a data frame's column comes out)."""
    x, y = points(n)
    return x, y, torch.rand(n, 1) + 0.5


def weighted_loss(model, batch):
    """Per-example losses [B] times weights [B, 1]: a [B, B] broadcast that only feeds the mean, so autograd saves
    nothing of size B² (check 3 cannot see it); each process averages over its own shard's pairs."""
    x, y, w = batch
    return (F.cross_entropy(model(x), y, reduction="none") * w).mean()


def regression_points(n):
    """n points in 10 dimensions and a standardised regression target [n] that the first coordinate predicts."""
    x = torch.randn(n, 10)
    return x, (x[:, 0] + 0.5 * torch.randn(n)) / 1.118


def broadcast_regression_loss(model, batch):
    """Predictions [B, 1] minus targets [B]: broadcast to [B, B], a loss no model can fit."""
    x, y = batch
    return (model(x) - y).pow(2).mean()


def regression_mlp(width=16):
    return seeded_mlp([10, width, 1], seed=22)


def stale_adam(params):
    """An optimizer over copies of the parameters: step() moves the copies, never the model."""
    return torch.optim.Adam([p.detach().clone().requires_grad_() for p in params], lr=1e-2)


def exhausted_groups_adam(params):
    """Two parameter groups from one generator: the first list uses it up, the biases' group is empty."""
    return torch.optim.AdamW([{"params": [p for p in params if p.dim() >= 2], "weight_decay": 0.1},
                              {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}], lr=1e-2)


def layerwise_decay_adam(params):
    """Layer-wise learning-rate decay, each group's scale written with an integer division: (i + 1) // groups is
    0 for every group but the last, so those are held, and step() never moves them."""
    params = list(params)
    groups = [params[i:i + 2] for i in range(0, len(params), 2)]
    return torch.optim.Adam([{"params": group, "lr": 1e-2 * ((i + 1) // len(groups))}
                             for i, group in enumerate(groups)], lr=1e-2)


class MatrixOnlySGD(torch.optim.Optimizer):
    """A hand-written SGD with momentum whose step() skips 1-D tensors (meant: no weight decay on them): biases and
    norm scales are held and get gradients, and never move."""

    def __init__(self, params, lr=0.1, momentum=0.9):
        super().__init__(params, {"lr": lr, "momentum": momentum})

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None or p.dim() < 2:
                    continue
                buffer = self.state[p].setdefault("momentum", torch.zeros_like(p))
                buffer.mul_(group["momentum"]).add_(p.grad)
                p.add_(buffer, alpha=-group["lr"])


class NeverZeroAdam(torch.optim.Adam):
    """An optimizer whose zero_grad() does nothing (say, a wrapper that forgot to pass it on)."""

    def zero_grad(self, set_to_none=True):
        pass


def never_zero_adam(params):
    return NeverZeroAdam(params, lr=1e-2)


def last_layer_adam(params):
    """An optimizer over the last layer's parameters only (left over from a fine-tuning script)."""
    return torch.optim.Adam(list(params)[-2:], lr=1e-2)


class _Kept:
    """A loss function that keeps something from every step, as logging code does by mistake."""

    def __init__(self, what):
        self.what, self.store, self.total = what, [], 0.0

    def __call__(self, model, batch):
        x, y = batch
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        if self.what == "losses":
            self.store.append(loss)                  # loss.item() was meant
        elif self.what == "total":
            self.total = self.total + loss           # a running total that keeps every step's graph
        else:
            self.store.append(logits)                # kept for an accuracy computed later
        return loss


class BadTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * (1 - y)                        # should be 1 - y²


class LocalSiLU(torch.autograd.Function):
    """x·sigmoid(x) whose backward returns the local derivative and forgets to multiply by grad_output."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        s = torch.sigmoid(x)
        return s * (1 + x * (1 - s))


class ScaledProduct(torch.autograd.Function):
    """a·b·scale whose gradient for b forgets the scale."""

    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.save_for_backward(a, b)
        ctx.scale = scale
        return a * b * scale

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b * ctx.scale, grad * a, None


class LeakyClamp(torch.autograd.Function):
    """clamp(x, -1, 1) whose backward is wrong below -1 only."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(-1, 1)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * (x < 1)


class TransposedWeightLinear(torch.autograd.Function):
    """x @ w.T whose backward returns the weight's gradient transposed (x.T @ grad instead of grad.T @ x)."""

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x @ w.T

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        return grad @ w, x.T @ grad


class InPlaceMaskReLU(torch.autograd.Function):
    """relu whose backward masks grad_output in place (`grad[x < 0] = 0`, the tutorial's `.clone()` left out): its own
    gradient is right, but an addition hands the same tensor to its other input, whose gradient it zeroes too."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        grad[x < 0] = 0
        return grad


class FunctionNet(nn.Module):
    """fc1, then a custom autograd Function, then fc2."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn
        self.fc1, self.fc2 = nn.Linear(10, 32), nn.Linear(32, 4)

    def forward(self, x):
        h = self.fc1(x)
        h = self.fn.apply(h, h, 1.0) if self.fn is ScaledProduct else self.fn.apply(h)
        return self.fc2(h)


class ResidualFunctionNet(FunctionNet):
    """fc1, then h + fn(h), then fc2: the addition hands one gradient tensor to both of its inputs."""

    def forward(self, x):
        h = self.fc1(x)
        return self.fc2(h + self.fn.apply(h))


def _function_case(fn, inputs, used=True):
    """A flight whose functions list `fn`; its model applies fn between two layers if `used`."""
    model = (lambda: FunctionNet(fn)) if used else TwoPath
    return lambda: fly(seeded(model, 23), functions=((fn, inputs()),))


def _seed_zero_inputs():
    """An input [3, 5] and a square weight [5, 5] drawn the way examples usually are, from seed 0: the input is then
    the very draw that weights v of the output's shape, [3, 5], drawn from seed 0 would be (in float64 too, at this
    size)."""
    torch.manual_seed(0)
    return torch.randn(3, 5), torch.randn(5, 5)


def _wide_inputs():
    return (torch.linspace(-2.5, 2.5, 12).reshape(3, 4),)


def _pair_inputs():
    g = torch.Generator().manual_seed(3)
    return torch.randn(2, 3, generator=g), torch.randn(2, 3, generator=g), 2.5


def _kept(what, make_model=lambda: two_path()):
    return lambda: fly(make_model(), loss_fn=_Kept(what))


def _frozen_by_accident():
    model = two_path()
    model.fc1.requires_grad_(False)
    return model


def _detached_embeddings():
    return fly(seeded(lambda: DetachedEmbeddings(vocab_size=16, dim=16, n_layers=1, n_heads=2), 24),
               make_batch=tokens, loss_fn=next_token_loss, batch_size=4)


class PrototypeDistances(nn.Module):
    """A prototypical classifier: logits -cdist(z, prototypes)², the class prototypes a buffer that forward then
    moves towards this batch's class means through .data. cdist saved the buffer itself, and check 2 exempts
    buffers (BatchNorm's are saved and updated in place legitimately), so backward computes with the moved
    prototypes unseen there. Each process moves them by its own shard, which check 7 sees."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16))
        self.register_buffer("prototypes", F.normalize(torch.randn(4, 16), dim=1))

    def forward(self, x, y):
        z = F.normalize(self.encoder(x), dim=1)
        logits = -5 * torch.cdist(z, self.prototypes).pow(2)
        if self.training:
            onehot = F.one_hot(y, 4).float()
            means = (onehot.T @ z.detach()) / onehot.sum(0).clamp(min=1)[:, None]
            seen = onehot.sum(0) > 0
            self.prototypes.data[seen] = F.normalize(self.prototypes.data[seen] + means[seen], dim=1)
        return logits


def prototype_loss(model, batch):
    x, y = batch
    return F.cross_entropy(model(x, y), y)


class RunningMaxClip(TwoPath):
    """A hand-written activation observer (PACT / QAT style): fc1's units clipped at a running max that forward
    updates from the batch, then uses, in the same pass. Each process measures its own shard's max (an all-reduce
    of the max is missing)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("running_max", torch.zeros(()))

    def main(self, x):
        h = torch.relu(self.fc1(x))
        if self.training:
            with torch.no_grad():
                self.running_max.mul_(0.9).add_(0.1 * h.max())
        return self.fc2(torch.minimum(h, self.running_max))


class ActNorm(nn.Module):
    """Glow's activation normalisation: a scale and shift per feature, set on the first training batch so that its
    outputs have mean 0 and standard deviation 1 (data-dependent initialisation), then learned. Under DDP each
    process sets them from its own shard, and the processes train different models from then on."""

    def __init__(self, features):
        super().__init__()
        self.log_scale, self.shift = nn.Parameter(torch.zeros(features)), nn.Parameter(torch.zeros(features))
        self.register_buffer("initialised", torch.tensor(False))

    def forward(self, x):
        if self.training and not self.initialised:
            with torch.no_grad():
                self.shift.copy_(-x.mean(0))
                self.log_scale.copy_(-(x.std(0) + 1e-6).log())
                self.initialised.fill_(True)
        return (x + self.shift) * self.log_scale.exp()


def actnorm_mlp():
    return seeded(lambda: nn.Sequential(nn.Linear(10, 32), ActNorm(32), nn.ReLU(), nn.Linear(32, 4)), 88)


BUGS = [
    # gradients
    Case("dead-relu", "bug", "gradients", "fc1's bias starts at -10: every unit is dead, its gradient stays 0",
         lambda: fly(two_path(DeadReLU))),
    Case("sqrt-where", "bug", "gradients", "torch.where(h > 0, h.sqrt(), h): the branch not taken still has a NaN "
         "derivative, and 0 · NaN is NaN (after one step the weights are NaN: training and the other comparisons "
         "fail too)", lambda: fly(two_path(SqrtWhere)), also=("overfit", "determinism", "ddp")),
    Case("gradient-scale-1e4", "bug", "gradients", "a gradient-scaling layer at 1e4 (1e-4 was meant): the side "
         "branch's gradients explode", lambda: fly(two_path(GradScaled))),
    Case("gradient-scale-0", "bug", "gradients", "a gradient-scaling layer at 0: the side branch's first layer "
         "never gets a gradient", lambda: fly(two_path(GradScaledZero))),
    Case("zero-mask-hook", "bug", "gradients", "a gradient hook masks fc1.weight's gradient to the rows meant to "
         "train, and the mask is all zeros (copy.deepcopy drops such a hook: the checks copy with copy_model)",
         lambda: fly(two_path(MaskedNewRows, seed=84))),
    Case("bidirectional-last-state", "bug", "gradients", "a bidirectional LSTM read through h_n[-1]: the backward "
         "direction's state only, so the forward direction's weights, reached inside the one fused LSTM node, get "
         "exactly zero gradients", lambda: fly(seeded(BackwardStateBiLSTM, 90), make_batch=sequences)),
    # graph
    Case("detached-branch", "bug", "graph", "a branch .detach()ed before it joins the output",
         lambda: fly(two_path(Detached))),
    Case("no-grad-layer", "bug", "graph", "a layer computed under torch.no_grad()",
         lambda: fly(two_path(NoGradLayer))),
    Case("data-write", "bug", "graph", "tanh's saved output halved through .data",
         lambda: fly(seeded(DataWrite, 25))),
    Case("max-norm-in-forward", "bug", "graph", "a weight clamped through .data after the forward used it",
         lambda: fly(seeded(MaxNormInForward, 26))),
    Case("frozen-by-accident", "bug", "graph", "fc1 left with requires_grad=False (not listed in frozen)",
         lambda: fly(_frozen_by_accident())),
    Case("plain-tensor-weight", "bug", "graph", "a weight kept as a plain tensor attribute, not an nn.Parameter",
         lambda: fly(seeded(PlainTensorWeight, 27))),
    Case("python-list-layers", "bug", "graph", "hidden layers in a Python list, not an nn.ModuleList",
         lambda: fly(seeded(PythonListLayers, 28))),
    Case("detached-embeddings", "bug", "graph", "a decoder whose token embeddings are .detach()ed",
         _detached_embeddings),
    Case("item-temperature", "bug", "graph", "a learned temperature read with .item()",
         lambda: fly(two_path(ItemTemperature))),
    Case("needs-input-grad-index", "bug", "graph", "a hand-written linear first layer whose backward computes the "
         "weight's gradient under the input's needs_input_grad flag: the weight is reached, its .grad stays None",
         lambda: fly(two_path(HandLinearFirst))),
    # memory
    Case("kept-losses", "bug", "memory", "every step's loss appended to a list (loss.item() was meant)",
         _kept("losses")),
    Case("running-total", "bug", "memory", "total = total + loss: a running total that keeps every graph",
         _kept("total")),
    Case("kept-logits", "bug", "memory", "every step's logits kept for an accuracy computed later",
         _kept("logits")),
    Case("feature-tap", "bug", "memory", "a forward hook that collects activations, graph and all",
         lambda: fly(two_path(FeatureTap))),
    Case("cached-bias", "bug", "memory", "a bias computed from a learned table once and cached: its nodes belong to "
         "every step's graph", lambda: fly(two_path(CachedBias, seed=63))),
    Case("broadcast-regression", "bug", "memory", "predictions [B, 1] minus targets [B]: a [B, B] loss that "
         "couples the examples (DDP differs) and that no model can fit",
         lambda: fly(regression_mlp(), make_batch=regression_points, loss_fn=broadcast_regression_loss),
         also=("overfit", "ddp")),
    Case("wide-broadcast-regression", "bug", "memory", "the [B, B] regression loss after a hidden layer of 256: "
         "the pairs are a small share of what a batch of 8 saves, and grow as B²",
         lambda: fly(regression_mlp(256), make_batch=regression_points, loss_fn=broadcast_regression_loss),
         also=("overfit", "ddp")),
    Case("batch-attention", "bug", "memory", "examples attend to each other: [B, B] activations",
         lambda: fly(seeded(BatchAttention, 29)), also=("ddp",)),
    # overfit
    Case("optimizer-over-copies", "bug", "overfit", "the optimizer holds copies of the parameters",
         lambda: fly(two_path(), make_optimizer=stale_adam)),
    Case("blind-model", "bug", "overfit", "a model that ignores its input",
         lambda: fly(seeded(Blind, 33), make_batch=balanced(points))),
    Case("lr-typo", "bug", "overfit", "SGD at lr=1e-5 (1e-1 was meant)",
         lambda: fly(two_path(), make_optimizer=lambda p: torch.optim.SGD(p, lr=1e-5))),
    Case("exhausted-groups", "bug", "overfit", "parameter groups built from one generator: biases never updated",
         lambda: fly(two_path(), make_optimizer=exhausted_groups_adam)),
    Case("zero-lr-groups", "bug", "overfit", "layer-wise learning rates scaled by (i + 1) // groups, an integer "
         "division: every group but the last gets lr 0", lambda: fly(two_path(seed=83),
                                                                   make_optimizer=layerwise_decay_adam)),
    Case("step-skips-vectors", "bug", "overfit", "a hand-written SGD whose step() skips 1-D tensors: the biases "
         "never move", lambda: fly(two_path(seed=84), make_optimizer=MatrixOnlySGD)),
    Case("never-zeroed", "bug", "overfit", "an optimizer whose zero_grad() does nothing",
         lambda: fly(two_path(), make_optimizer=never_zero_adam)),
    Case("last-layer-optimizer", "bug", "overfit", "an optimizer over the last layer only",
         lambda: fly(two_path(), make_optimizer=last_layer_adam)),
    Case("zeroed-inputs", "bug", "overfit", "one-channel images standardised over channels: every input is 0",
         lambda: fly(seeded(ChannelStandardised, 30), make_batch=balanced(images)), also=("gradients",)),
    Case("parameter-remade-in-forward", "bug", "overfit", "self.scale = nn.Parameter(self.scale.clamp(...)) in "
         "forward: the optimizer holds the first scale only", lambda: fly(two_path(ScaleRemadeInForward, seed=76)),
         also=("ddp",)),
    Case("head-made-on-first-call", "bug", "overfit", "a projection made in forward on the first call, after the "
         "optimizer was made", lambda: fly(two_path(HeadMadeOnFirstCall, seed=77)), also=("ddp",)),
    Case("sign-flipped-nll", "bug", "overfit", "a hand-written NLL without its minus sign: the loss starts below 0 "
         "and falls fast, towards the wrong labels", lambda: fly(two_path(seed=78), loss_fn=log_likelihood_loss)),
    # functions
    Case("tanh-backward", "bug", "functions", "tanh whose backward uses 1 - y instead of 1 - y²",
         _function_case(BadTanh, _wide_inputs)),
    Case("backward-ignores-grad", "bug", "functions", "a SiLU whose backward ignores grad_output, listed for the "
         "check before the model uses it", _function_case(LocalSiLU, _wide_inputs, used=False)),
    Case("second-input-gradient", "bug", "functions", "a·b·scale whose gradient for b forgets the scale",
         _function_case(ScaledProduct, _pair_inputs)),
    Case("transposed-weight-gradient", "bug", "functions", "a custom linear layer whose backward transposes the "
         "weight's gradient, listed with example inputs drawn from seed 0 (a square weight)",
         _function_case(TransposedWeightLinear, _seed_zero_inputs, used=False)),
    Case("clamp-tail", "bug", "functions", "a clamp whose backward is wrong below -1 only",
         _function_case(LeakyClamp, _wide_inputs)),
    Case("grad-output-masked-in-place", "bug", "functions", "a relu whose backward masks grad_output in place, in a "
         "residual branch h + relu(h): the gradient of h's other path is masked too",
         lambda: fly(seeded(lambda: ResidualFunctionNet(InPlaceMaskReLU), 89),
                     functions=((InPlaceMaskReLU, _wide_inputs()),))),
    # determinism
    Case("os-seeded-dropout", "bug", "determinism", "dropout masks from a generator the OS seeds",
         lambda: fly(two_path(OSDropout))),
    Case("numpy-default-rng", "bug", "determinism", "loss noise from NumPy's unseeded default_rng()",
         lambda: fly(two_path(), loss_fn=numpy_noise_loss)),
    Case("set-ordered-labels", "bug", "determinism", "class names mapped to ids through a set: the ids follow "
         "the hash seed, which differs from one launch to the next",
         lambda: fly(seeded_mlp([10, 32, len(CLASS_NAMES)], seed=32), make_batch=named_points)),
    Case("process-dependent-backward", "bug", "determinism", "a backward whose rounding depends on the process "
         "(cuDNN's benchmark mode): every loss after the first differs in its last digits in a fresh process",
         lambda: fly(two_path(ProcessDependentBackward), make_optimizer=lambda p: torch.optim.SGD(p, lr=0.5))),
    Case("noisy-optimizer", "bug", "determinism", "an optimizer that adds noise from a generator the OS seeds",
         lambda: fly(two_path(), make_optimizer=lambda p: OSNoiseSGD(p, lr=0.1))),
    Case("system-shuffle", "bug", "determinism", "batches drawn in an order from random.SystemRandom",
         lambda: fly(two_path(), make_batch=system_shuffled_points)),
    # ddp
    Case("sum-loss", "bug", "ddp", "cross-entropy summed instead of averaged", lambda: fly(two_path(), loss_fn=sum_loss)),
    Case("local-token-mean", "bug", "ddp", "a mean over the real rows of each process's own shard",
         lambda: fly(two_path(), make_batch=masked_points, loss_fn=local_masked_mean)),
    Case("world-size-compensation", "bug", "ddp", "the loss multiplied by the world size under DDP",
         lambda: fly(two_path(), loss_fn=world_scaled_loss)),
    Case("batchnorm-per-process", "bug", "ddp", "BatchNorm: each process normalises its shard by its own statistics "
         "(SyncBatchNorm shares them)", lambda: fly(batchnorm_mlp())),
    Case("batchnorm-stem-transformer", "bug", "ddp", "a BatchNorm stem before a Transformer layer whose attention "
         "has dropout (the switch must reach it, or the model looks random beyond dropout)",
         lambda: fly(seeded(BatchNormStemTransformer, 23))),
    Case("bf16-sum-loss", "bug", "ddp", "a summed loss under bfloat16 autocast",
         lambda: fly(two_path(), loss_fn=bf16_sum_loss)),
    Case("constant-batch-divisor", "bug", "ddp", "a summed loss divided by the configured batch size, 8",
         lambda: fly(two_path(), loss_fn=over_constant_batch)),
    Case("input-gradient-penalty", "bug", "ddp", "a penalty on the input gradient, taken by torch.autograd.grad "
         "through the model inside the step: DDP does not reduce such a step's gradients as one process computes them",
         lambda: fly(two_path(seed=73), loss_fn=saliency_penalised_loss)),
    Case("prototype-buffer-write", "bug", "ddp", "class prototypes (a buffer) moved through .data towards the "
         "batch's class means after cdist saved them: backward reads the moved ones, unseen by check 2 (buffers are "
         "exempt), and each process moves them by its own shard", lambda: fly(seeded(PrototypeDistances, 24),
                                                                             loss_fn=prototype_loss)),
    Case("actnorm-per-process", "bug", "ddp", "ActNorm (Glow) sets its scale and shift from the first training "
         "batch: each process from its own shard", lambda: fly(actnorm_mlp())),
    Case("running-max-observer", "bug", "ddp", "activations clipped at a running max that forward updates from the "
         "batch and then uses: each process measures its own shard (a QAT observer without its all-reduce)",
         lambda: fly(two_path(RunningMaxClip, seed=75))),
    Case("weights-broadcast", "bug", "ddp", "per-example losses [B] times weights [B, 1]: a [B, B] broadcast that "
         "nothing saves (memory cannot see it), averaged over each shard's own pairs",
         lambda: fly(two_path(), make_batch=weighted_points, loss_fn=weighted_loss)),
]


# ---------------------------------------------------------------- blind spots
def teacher_points(n, mismatched=False):
    """Points labelled by a fixed linear teacher; `mismatched`: the labels belong to other points."""
    teacher = torch.randn(10, 4, generator=torch.Generator().manual_seed(31))
    x = torch.randn(n, 10)
    source = torch.randn(n, 10) if mismatched else x
    return x, (source @ teacher).argmax(1)


class UndetachedFeatureBank(TwoPath):
    """A bank of features kept for a monitor (a kNN probe) that the loss never reads, pushed without .detach():
    each entry keeps its branch of that step's graph alive, step after step, but the loss never reaches it, so no
    marker of check 3 is in it. (A MoCo queue that the loss reads as negatives fails loudly instead: the next
    step's backward runs into a graph already freed.)"""

    def __init__(self):
        super().__init__()
        self.bank = []

    def forward(self, x):
        self.bank = (self.bank + [self.side1(x)])[-64:]    # meant: self.side1(x).detach()
        return super().forward(x)


class FirstLossKept:
    """A loss function that keeps its first loss, to log later losses as a share of it: kept as the tensor (meant:
    .item()), so the graph of its first call lives as long as the loss function does: one graph, not a growth."""

    def __init__(self):
        self.first = None

    def __call__(self, model, batch):
        loss = classification_loss(model, batch)
        if self.first is None:
            self.first = loss                                # meant: loss.item()
        return loss


class SharedFrozenLayer(nn.Module):
    """A student that reuses its teacher's first layer; the teacher is frozen, and so, by accident, is the
    student's first layer. named_parameters() lists the shared layer once, under the teacher's name, which is in
    frozen."""

    def __init__(self):
        super().__init__()
        self.teacher = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
        self.student = nn.Sequential(self.teacher[0], nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
        self.teacher.requires_grad_(False)

    def forward(self, x):
        return self.student(x)


def _shared_frozen_layer():
    model = seeded(SharedFrozenLayer, 65)
    return fly(model, make_optimizer=trainable_adamw(1e-2), frozen=frozen_names(model))


class UndividedAveragePool(torch.autograd.Function):
    """Global average pooling over H x W whose backward forgets to divide by H·W: every gradient below it is H·W
    times too large."""

    @staticmethod
    def forward(ctx, h):
        ctx.shape = h.shape
        return h.mean(dim=(2, 3))

    @staticmethod
    def backward(ctx, grad):
        return grad[:, :, None, None].expand(ctx.shape)


class UndividedPoolConvNet(SmallConvNet):
    def forward(self, x):
        h = F.relu(self.conv2(F.relu(self.conv1(x))))
        return self.head(UndividedAveragePool.apply(h))


def jittered_points():
    """make_batch whose jitter comes from its own random.Random(), made and seeded by the OS once, when the flight
    is built: the flight carries the generator's state, so two runs of one flight start from the same state, and
    the next launch from another."""
    jitter = random.Random()

    def make_batch(n):
        x, y = points(n)
        return x + 0.1 * torch.tensor([[jitter.gauss(0, 1) for _ in range(x.shape[1])] for _ in range(n)]), y
    return make_batch


class EvalModeDropout(TwoPath):
    """F.dropout without training=self.training: its default, training=True, keeps dropping in eval mode."""

    def main(self, x):
        return self.fc2(F.dropout(torch.relu(self.fc1(x)), 0.2))   # meant: training=self.training


def transitions(n):
    """n transitions of a Q-learning replay buffer: states [n, 10], actions in 0..3, rewards, next states."""
    return torch.randn(n, 10), torch.randint(0, 4, (n,)), torch.randn(n), torch.randn(n, 10)


def undetached_td_loss(model, batch, gamma=0.9):
    """The Q-learning loss on Q(s, a) - (r + gamma * max Q(s')), whose target the model computes without .detach():
    gradient flows through the target too (the residual-gradient method, not the Q-learning step it was meant as)."""
    s, a, r, s_next = batch
    q = model(s).gather(1, a[:, None]).squeeze(1)
    target = r + gamma * model(s_next).amax(1)       # meant: under torch.no_grad()
    return F.smooth_l1_loss(q, target)


class RenormalisedTop1MoE(Top1MoE):
    """Top-1 routing whose gates are renormalised over the experts kept, as Mixtral's top-k is: with k = 1 every gate
    is p / p = 1, so the router's true gradient is 0, and rounding leaves it a tiny one that is not exactly 0."""

    def route(self, x):
        top, choice = super().route(x)
        return top / top, choice                         # meant: top-k with k > 1, or no renormalisation


class ParameterViewOffset(TwoPath):
    """An output offset kept as a view of a parameter, nn.Parameter(...)[None]: the attribute is a plain tensor,
    the parameter behind it is listed nowhere, and no optimizer moves it. copy_model copies the view detached, as it
    copies every tensor a forward pass computed, so on the copy the offset is a constant."""

    def __init__(self):
        super().__init__()
        self.offset = nn.Parameter(torch.zeros(4))[None]  # meant: nn.Parameter(torch.zeros(1, 4))

    def forward(self, x):
        return super().forward(x) + self.offset


BLIND_SPOTS = [
    Case("mismatched-labels", "blind spot", None, "labels drawn for other examples: one batch is memorised all "
         "the same", lambda: fly(two_path(), make_batch=lambda n: teacher_points(n, mismatched=True))),
    Case("undetached-feature-bank", "blind spot", None, "features pushed onto a bank that the loss never reads, "
         "without .detach(): their graphs live on, outside the loss's graph, where check 3 puts its markers",
         lambda: fly(two_path(UndetachedFeatureBank, 64))),
    Case("undivided-pool-backward", "blind spot", None, "a pooling backward that forgets to divide by H·W on 32x32 "
         "images: gradients 1024 times too large, and still a sensitivity under max_ratio, since the conv layers' "
         "own is far below 1", lambda: fly(seeded(UndividedPoolConvNet, 74), make_batch=lambda n: images(n, 32))),
    Case("first-loss-kept", "blind spot", None, "a loss function that keeps its first loss as a tensor: one graph "
         "held for good (its nodes: backward frees what they saved), and it is the graph of check 3's first measured "
         "forward pass, which carries no marker",
         lambda: fly(two_path(seed=91), loss_fn=FirstLossKept())),
    Case("flight-owned-generator", "blind spot", None, "jitter from a random.Random() that make_batch made when the "
         "flight was built: both runs of check 6 start from the state the flight carries",
         lambda: fly(two_path(seed=72), make_batch=jittered_points())),
    Case("shared-frozen-layer", "blind spot", None, "a student sharing its frozen teacher's first layer: frozen too, "
         "under the teacher's name, which is in frozen", _shared_frozen_layer),
    Case("no-causal-mask", "blind spot", None, "a nanoGPT-style model whose attention has no causal mask: each "
         "position reads the token it is asked to predict",
         lambda: fly(seeded(lambda: TinyGPT(causal=False), 16), make_batch=tokens, loss_fn=next_token_loss,
                     batch_size=4)),
    Case("undetached-td-target", "blind spot", None, "a Q-learning target r + 0.9 · max Q(s') that the model "
         "computes without .detach(): every parameter is still reached, and the loss still falls",
         lambda: fly(seeded_mlp([10, 32, 32, 4], 77), make_batch=transitions, loss_fn=undetached_td_loss)),
    Case("renormalised-top1-gate", "blind spot", None, "top-1 routing with its gate renormalised to p / p = 1: "
         "the router's gradient is zero up to rounding, not exactly zero, and it never learns",
         lambda: fly(seeded(RenormalisedTop1MoE, 88))),
    Case("parameter-view-attribute", "blind spot", None, "an offset kept as nn.Parameter(...)[None], a view that "
         "parameters() does not list: check 2 looks at a copy, where the view is a constant",
         lambda: fly(two_path(ParameterViewOffset, 89))),
    Case("dropout-in-eval-mode", "blind spot", None, "F.dropout without training=self.training: it drops in eval "
         "mode too, and no check looks at eval mode for its own sake", lambda: fly(two_path(EvalModeDropout, 78))),
]


# ---------------------------------------------------------------- false alarms
def two_views(n):
    """Two noisy views [n, 10] of n random points: the positive pairs of a contrastive loss."""
    x = torch.randn(n, 10)
    return x + 0.1 * torch.randn(n, 10), x + 0.1 * torch.randn(n, 10)


def queue_info_nce(q, k, queue, temperature=0.2):
    """MoCo's InfoNCE: each query's positive is its own key, its negatives the queue's keys."""
    q, k = F.normalize(q, dim=1), F.normalize(k, dim=1)
    logits = torch.cat([(q * k).sum(1, keepdim=True), q @ queue.T], 1) / temperature
    return F.cross_entropy(logits, torch.zeros(len(q), dtype=torch.long))


def queries_and_keys(model, batch):
    """MoCo's two encodings of the two views: the queries, and the keys without a graph."""
    x1, x2 = batch
    with torch.no_grad():
        k = model(x2)
    return model(x1), k


def first_queue(size=32, dim=16):
    """MoCo starts its queue full, with random unit keys."""
    return F.normalize(torch.randn(size, dim, generator=torch.Generator().manual_seed(0)), dim=1)


class QueueHeldByLoss:
    """A MoCo-style loss that keeps its queue of negatives itself: every call reads the queue, then pushes its
    batch's keys (detached) and drops the oldest."""

    def __init__(self):
        self.queue = first_queue()

    def __call__(self, model, batch):
        q, k = queries_and_keys(model, batch)
        loss = queue_info_nce(q, k, self.queue)
        self.queue = torch.cat([self.queue, F.normalize(k, dim=1)])[len(k):]
        return loss


class QueueEncoder(nn.Module):
    """An encoder that keeps MoCo's queue as a buffer, so that copies of the model carry it."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16))
        self.register_buffer("queue", first_queue())

    def forward(self, x):
        return self.net(x)


def buffer_queue_loss(model, batch):
    """The loss of QueueHeldByLoss, with the queue in the model's buffer (read through DDP's wrapper too)."""
    encoder = getattr(model, "module", model)
    q, k = queries_and_keys(model, batch)
    loss = queue_info_nce(q, k, encoder.queue.clone())   # a copy: the push below writes the buffer in place
    encoder.queue.copy_(torch.cat([encoder.queue, F.normalize(k, dim=1)])[len(k):])
    return loss


class TimeConditioned(nn.Module):
    """A denoiser: predicts the noise in x from x and its noise level t in [0, 1]."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(11, 32), nn.SiLU(), nn.Linear(32, 10))

    def forward(self, x, t):
        return self.net(torch.cat([x, t[:, None]], 1))


def noise_prediction_loss(model, x):
    """A diffusion model's loss, which draws each example's noise level and noise itself."""
    t = torch.rand(len(x))
    noise = torch.randn_like(x)
    noisy = (1 - t[:, None]).sqrt() * x + t[:, None].sqrt() * noise
    return F.mse_loss(model(noisy, t), noise)


class RandomFeatureMasking(TwoPath):
    """Masks a random quarter of the input features in eval mode too (a masked autoencoder's random masking)."""

    def forward(self, x):
        return super().forward(x * (torch.rand(x.shape) > 0.25))


FALSE_ALARMS = [
    Case("queue-held-by-loss", "false alarm", "ddp", "a MoCo-style queue of negatives that the loss function keeps: "
         "check 7's one-process passes move it on before the flight travels, and on one batch repeated the queue "
         "fills with that batch's own keys", lambda: fly(seeded_mlp([10, 32, 16], 81), make_batch=two_views,
                                                          loss_fn=QueueHeldByLoss()), also=("overfit",)),
    Case("queue-in-buffer", "false alarm", "overfit", "the same queue kept in the model as a buffer: copies carry "
         "it, so check 7 passes; one batch repeated still fills it with its own keys",
         lambda: fly(seeded(QueueEncoder, 81), make_batch=two_views, loss_fn=buffer_queue_loss)),
    Case("loss-draws-noise", "false alarm", "ddp", "a diffusion loss that draws its noise levels and noise itself: "
         "each process draws other ones for its shard",
         lambda: fly(seeded(TimeConditioned, 79), make_batch=unlabeled_points, loss_fn=noise_prediction_loss)),
    Case("masking-in-eval-mode", "false alarm", "ddp", "random masking of the input that never switches off: "
         "each process draws its own masks, in eval mode too", lambda: fly(two_path(RandomFeatureMasking, 80))),
]


def cases(kind=None, graded_only=False):
    """Every case of `kind` ("healthy", "bug", "blind spot", "false alarm"), or all of them. graded_only: only
    those the chapter's hidden tests may use, leaving out a case that asks more than what the exercises teach (a
    sparse batch: the statements say how to handle one, but a correct solution that misses it should not lose its
    points)."""
    every = HEALTHY + BUGS + BLIND_SPOTS + FALSE_ALARMS
    return [case for case in every if (kind is None or case.kind == kind) and (case.graded or not graded_only)]


def case(name):
    """The case called `name`."""
    for c in cases():
        if c.name == name:
            return c
    raise KeyError(f"no zoo case {name!r}")


def expect_verdicts(check, name, some_cases, **flagged_changes):
    """Test helper: runs `check` on a fresh flight of every case and asserts that it fails exactly on the cases
    that `name` (the check's name: "gradients", ...) must flag, with a message naming the case. `flagged_changes`
    are Flight fields changed for the cases that must fail (`steps=40`: a bug fails on any budget)."""
    for c in some_cases:
        must_fail = name in c.flagged_by()
        flight = c.build()
        result = check(flight.replace(**flagged_changes) if must_fail else flight)
        if not isinstance(result, CheckResult):
            raise AssertionError(f"zoo case {c.name!r}: expected a CheckResult, got {type(result).__name__}")
        expected = not must_fail
        if result.passed is not expected:            # a Python bool, as expect_verdict asks: not a tensor
            raise AssertionError(f"zoo case {c.name!r} ({c.what}): expected passed={expected}, got "
                                 f"passed={result.passed!r} (reason: {result.reason!r})")
