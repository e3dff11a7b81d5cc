"""Unit tests for the course modules chapter 4 stands on: decoder, graph drawing, hook counting, sizes."""
import math
import shutil
import warnings

import pytest
import torch
import torch.nn.functional as F

import course
from course import graph
from course.decoder import (RMSNorm, SelfAttention, TinyDecoder, layer_index, lm_loss, parameter_kind,
                            seeded_decoder, token_batch)
from course.hooks import hook_counts
from course.models import seeded_mlp


# ---------------------------------------------------------------- decoder
def test_decoder_shapes_and_names():
    model = seeded_decoder(vocab_size=40, dim=16, n_layers=2, n_heads=2, seed=0)
    tokens = token_batch(3, 7, 40, seed=1)
    assert model(tokens).shape == (3, 7, 40)
    names = [n for n, _ in model.named_parameters()]
    assert names[0] == "embed_tokens.weight" and names[-2:] == ["norm.weight", "lm_head.weight"]
    block = [n[len("layers.0."):] for n in names if n.startswith("layers.0.")]
    assert block == ["input_layernorm.weight", "self_attn.q_proj.weight", "self_attn.k_proj.weight",
                     "self_attn.v_proj.weight", "self_attn.o_proj.weight", "post_attention_layernorm.weight",
                     "mlp.gate_proj.weight", "mlp.up_proj.weight", "mlp.down_proj.weight"]
    assert all(not isinstance(m, torch.nn.Linear) or m.bias is None for m in model.modules()), "no biases"
    assert model.config["hidden"] % 8 == 0 and model.config["hidden"] >= 8 * 16 // 3


def test_seeded_decoder_is_deterministic_and_leaves_global_rng_alone():
    torch.manual_seed(123)
    before = torch.rand(1)
    torch.manual_seed(123)
    a = seeded_decoder(seed=5)
    after = torch.rand(1)
    b = seeded_decoder(seed=5)
    c = seeded_decoder(seed=6)
    assert torch.equal(before, after), "seeded_decoder must not consume the global RNG"
    for (n, p), q, r in zip(a.named_parameters(), b.parameters(), c.parameters()):
        assert torch.equal(p, q), n
        if p.dim() == 2:
            assert not torch.equal(p, r), n
    w = a.layers[0].self_attn.q_proj.weight
    assert abs(w.std().item() - 0.02) < 0.004, "LLaMA-style init: N(0, 0.02²)"


def test_decoder_is_causal_and_starts_near_uniform():
    model = seeded_decoder(vocab_size=32, dim=16, n_layers=2, n_heads=4, seed=0).eval()
    tokens = token_batch(2, 9, 32, seed=0)
    changed = tokens.clone()
    changed[:, 6:] = (changed[:, 6:] + 1) % 32
    with torch.no_grad():
        same = model(tokens)[:, :6]
        other = model(changed)[:, :6]
        loss = lm_loss(model(tokens), tokens).item()
    torch.testing.assert_close(same, other, rtol=0, atol=1e-6)
    assert abs(loss - math.log(32)) < 0.1, loss


def test_lm_loss_is_next_token_cross_entropy():
    logits = torch.randn(2, 5, 11)
    tokens = torch.randint(0, 11, (2, 5))
    manual = F.cross_entropy(logits[:, :-1].reshape(-1, 11), tokens[:, 1:].reshape(-1))
    torch.testing.assert_close(lm_loss(logits, tokens), manual)


def test_rmsnorm_normalises_and_attention_checks_heads():
    x = torch.randn(4, 3, 16) * 7
    y = RMSNorm(16)(x)
    torch.testing.assert_close(y.pow(2).mean(-1), torch.ones(4, 3), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError):
        SelfAttention(dim=12, n_heads=4)        # head size 3 is odd: RoPE needs pairs


def test_token_batch_follows_a_learnable_chain():
    a = token_batch(8, 20, 30, seed=1)
    assert a.dtype == torch.int64 and a.shape == (8, 20) and 0 <= a.min() and a.max() < 30
    assert torch.equal(a, token_batch(8, 20, 30, seed=1))
    assert not torch.equal(a, token_batch(8, 20, 30, seed=2))
    successors = {}
    for row in torch.cat([a, token_batch(64, 20, 30, seed=3)]).tolist():
        for prev, nxt in zip(row, row[1:]):
            successors.setdefault(prev, set()).add(nxt)
    assert max(len(s) for s in successors.values()) <= 4


def test_decoder_learns_the_chain():
    model = seeded_decoder(vocab_size=24, dim=16, n_layers=1, n_heads=2, seed=0)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    losses = []
    for step in range(30):
        tokens = token_batch(16, 12, 24, seed=step)
        opt.zero_grad()
        loss = lm_loss(model(tokens), tokens)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0] - 0.5, losses


def test_parameter_kind_and_layer_index():
    model = TinyDecoder(vocab_size=16, dim=8, n_layers=3, n_heads=2)
    kinds = {parameter_kind(n) for n, _ in model.named_parameters()}
    assert kinds == {"embed", "attn_norm", "q_proj", "k_proj", "v_proj", "o_proj", "mlp_norm", "gate_proj",
                     "up_proj", "down_proj", "final_norm", "lm_head"}
    assert layer_index("layers.2.mlp.up_proj.weight") == 2
    assert layer_index("norm.weight") is None and layer_index("embed_tokens.weight") is None
    with pytest.raises(ValueError):
        parameter_kind("encoder.weight")


# ---------------------------------------------------------------- graph drawing
def _mlp_loss():
    model = seeded_mlp([4, 6, 3], seed=0)
    x = torch.randn(5, 4, generator=torch.Generator().manual_seed(0))
    return model, F.cross_entropy(model(x), torch.tensor([0, 1, 2, 0, 1]))


def test_text_tree_names_nodes_and_parameters():
    model, loss = _mlp_loss()
    tree = graph.draw_graph(loss, params=dict(model.named_parameters()), backend="text")
    assert isinstance(tree, graph.TextGraph)
    text = str(tree)
    assert tree.node_count == 11
    assert text.splitlines()[1] == "[1] NllLossBackward0"
    for name, p in model.named_parameters():
        assert f"AccumulateGrad  -> {name} ({', '.join(map(str, p.shape))})" in text
    assert repr(tree) == text


def test_text_tree_marks_shared_nodes_and_leaves():
    a = torch.tensor(3.0, requires_grad=True)
    b = a + a
    tree = graph.TextGraph(b * b, {"a": a})
    text = str(tree)
    assert tree.node_count == 3
    assert text.count("(shared, shown above)") == 2
    assert "-> a ()" in text
    assert "leaf that requires grad" in str(graph.TextGraph(a))
    assert "requires_grad=False" in str(graph.TextGraph(torch.ones(2)))
    x = torch.ones(3, requires_grad=True)
    assert "-> leaf (3)" in str(graph.TextGraph((x * 2).sum()))


def test_text_tree_handles_deep_graphs():
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(3000):            # deeper than Python's recursion limit
        y = y * 1.0
    tree = graph.TextGraph(y.sum())
    assert tree.node_count == 3002


def test_draw_graph_uses_torchviz_when_dot_exists():
    if shutil.which("dot") is None:
        pytest.skip("Graphviz dot is not installed here")
    model, loss = _mlp_loss()
    assert graph.has_dot()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        drawing = graph.draw_graph(loss, params=dict(model.named_parameters()))
        svg = drawing.pipe(format="svg")
    assert type(drawing).__name__ == "Digraph"
    assert "0.weight" in drawing.source and "NllLossBackward0" in drawing.source
    assert svg.startswith(b"<?xml") or b"<svg" in svg[:500]


def test_draw_graph_falls_back_to_text_without_dot_on_path(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))        # an empty folder: no dot anywhere
    assert not graph.has_dot()
    model, loss = _mlp_loss()
    drawing = graph.draw_graph(loss, params=dict(model.named_parameters()))
    assert isinstance(drawing, graph.TextGraph)
    assert "AccumulateGrad  -> 2.weight (3, 6)" in str(drawing)
    # torchviz still builds the dot source without the program (only rendering needs it)
    assert "2.weight" in graph.draw_graph(loss, params=dict(model.named_parameters()), backend="torchviz").source


def test_draw_graph_falls_back_when_which_finds_nothing(monkeypatch):
    monkeypatch.setattr(graph.shutil, "which", lambda name: None)
    _, loss = _mlp_loss()
    assert isinstance(graph.draw_graph(loss), graph.TextGraph)


def test_draw_graph_rejects_bad_arguments():
    _, loss = _mlp_loss()
    with pytest.raises(ValueError):
        graph.draw_graph(loss, backend="matplotlib")
    with pytest.raises(TypeError):
        graph.draw_graph([loss])


# ---------------------------------------------------------------- hooks
def test_hook_counts_sees_every_kind_and_its_removal():
    model = seeded_mlp([3, 4, 2], seed=0)
    assert hook_counts(model) == {"forward": 0, "module_backward": 0, "tensor": 0, "post_accumulate": 0}
    handles = [
        model[0].register_forward_hook(lambda *args: None),
        model[0].register_forward_pre_hook(lambda *args: None),
        model[2].register_full_backward_hook(lambda *args: None),
        model[0].weight.register_hook(lambda g: None),
        model[0].bias.register_post_accumulate_grad_hook(lambda p: None),
        model[2].bias.register_post_accumulate_grad_hook(lambda p: None),
    ]
    assert hook_counts(model) == {"forward": 2, "module_backward": 1, "tensor": 1, "post_accumulate": 2}
    for h in handles:
        h.remove()
    assert hook_counts(model) == {"forward": 0, "module_backward": 0, "tensor": 0, "post_accumulate": 0}


# ---------------------------------------------------------------- sizes
@pytest.mark.parametrize("name", ["grade", "cpu", "gpu"])
def test_ch04_sizes(monkeypatch, name):
    monkeypatch.setenv("COURSE_PROFILE", name)
    s = course.sizes("ch04")
    assert s.compile is (name != "grade")
    assert s.dec_dim % s.dec_heads == 0 and (s.dec_dim // s.dec_heads) % 2 == 0
    assert s.train_steps >= 1 and s.power_iters >= 10 and s.ladder_depth <= 20
