"""Training memory, taken apart: big models built without memory, cards to compare against, and the plots.

What training keeps in memory is parameters + gradients + optimizer state + activations (the tensors autograd
saves for backward). Chapter 3 counts each one; this module holds what the counting stands on.
"""
import contextlib
import gc
import statistics
import time
import weakref

import matplotlib.pyplot as plt
import torch

from .decoder import TinyDecoder

GiB = 2**30
# The cards the 7B table is read against. GPU memory is counted in binary units: a card sold as "80 GB" (an A100)
# holds 80 GiB = 80 × 2³⁰ bytes, which is what `torch.cuda.get_device_properties(0).total_memory` reports.
CARDS = {"16 GiB card": 16 * GiB, "24 GiB card": 24 * GiB, "80 GiB card": 80 * GiB}

# LLaMA-7B's shape (Touvron et al., 2023): 32 blocks of width 4096, 32 heads, SwiGLU width 11008, 32000 tokens.
LLAMA_7B = dict(vocab_size=32000, dim=4096, n_layers=32, n_heads=32, hidden=11008)


@contextlib.contextmanager
def default_dtype(dtype):
    """Builds tensors in `dtype` inside the block (on the meta device `module.to(dtype)` is no option)."""
    before = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(before)


def decoder_on_meta(dtype=torch.bfloat16, **config):
    """A TinyDecoder on the `meta` device: every tensor has a shape and a dtype, none has memory."""
    with default_dtype(dtype), torch.device("meta"):
        return TinyDecoder(**config)


def saved_tensor_listing(fn):
    """Runs fn() and lists every tensor autograd saves for backward, as it is saved (repeats included):
    [(name of the op that made it, or "leaf/input", shape, dtype)]. A teaching aid: it does not ask which of
    them share memory."""
    listing = []

    def pack(t):
        maker = type(t.grad_fn).__name__ if t.grad_fn is not None else "leaf/input"
        listing.append((maker, tuple(t.shape), t.dtype))
        return t.detach()                          # an output kept with its grad_fn would never be freed

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    return listing


def saved_alive_after(fn, pack_returns, params=()):
    """Runs fn() under a pack hook that returns pack_returns(t), drops fn's result, runs gc.collect(), and returns
    (how many of the saved tensors that an operation made still hold their memory, how many there were). Leaves
    (inputs) and views of the tensors in `params` (a transposed weight) are not counted: they live on anyway. A
    tensor saved with its grad_fn by the operation that made it (exp, relu, softmax save their output) holds that
    grad_fn, which holds it: a cycle through C++ that the collector cannot see, so only a backward pass frees it."""
    skip = {p.untyped_storage() for p in params}
    made = []

    def pack(t):
        if t.grad_fn is not None and t.untyped_storage() not in skip:
            made.append(weakref.ref(t.untyped_storage()))   # the memory, whichever tensor object keeps it
        return pack_returns(t)

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    gc.collect()
    return sum(ref() is not None for ref in made), len(made)


def median_seconds(fn, repeats=5, warmup=1):
    """Median wall-clock time of fn() over `repeats` runs, after `warmup` runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cuda_peak_step(step, device):
    """Peak CUDA memory (bytes, from `torch.cuda.max_memory_allocated`) while step() runs, above what was
    allocated before it; None on a device without that counter (the CPU)."""
    device = torch.device(device)
    if device.type != "cuda":
        return None
    torch.cuda.synchronize(device)
    before = torch.cuda.memory_allocated(device)
    torch.cuda.reset_peak_memory_stats(device)
    step()
    torch.cuda.synchronize(device)
    return torch.cuda.max_memory_allocated(device) - before


def stacked_memory_bars(rows, parts, cards=CARDS, ax=None, title=None):
    """Stacked bars, one per row: rows = {label: {part: bytes}}, drawn in GiB, `parts` bottom to top, with a
    dashed line per card ({name: bytes})."""
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 4))
    labels = list(rows)
    bottom = [0.0] * len(labels)
    for part in parts:
        heights = [rows[label].get(part, 0) / GiB for label in labels]
        ax.bar(labels, heights, bottom=bottom, label=part)
        bottom = [b + h for b, h in zip(bottom, heights)]
    for i, (card, size) in enumerate(cards.items()):
        ax.axhline(size / GiB, linestyle="--", linewidth=1, color=f"C{len(parts) + i}", label=card)
    ax.set_ylabel("GiB (2³⁰ bytes)")
    ax.tick_params(axis="x", labelrotation=30)
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small", ncol=2)
    return ax
