"""Interactive widgets as thin wrappers over pure, tested functions.

A slider only wires a callback; the callback draws what a pure function computed. Tests call the pure
function and the callback directly, so a headless run never depends on a browser.
"""
import math

import matplotlib.pyplot as plt
import torch

from . import plots

# An elongated, rotated bowl: f(w) = 1/2 w^T H w with eigenvalues 1 and 10, so plain gradient descent is
# stable exactly below lr = 2 / 10.
BOWL_EIGENVALUES = (1.0, 10.0)
BOWL_ANGLE = math.pi / 6
BOWL_START = (1.0, 2.5)


def bowl_hessian() -> torch.Tensor:
    c, s = math.cos(BOWL_ANGLE), math.sin(BOWL_ANGLE)
    rotation = torch.tensor([[c, -s], [s, c]], dtype=torch.float64)
    return rotation @ torch.diag(torch.tensor(BOWL_EIGENVALUES, dtype=torch.float64)) @ rotation.T


def bowl_loss(x, y):
    """f on a grid (tensors of equal shape), for contour plots."""
    h = bowl_hessian()
    return 0.5 * (h[0, 0] * x * x + 2 * h[0, 1] * x * y + h[1, 1] * y * y)


def descend_bowl(lr: float, steps: int):
    """Plain gradient descent on the bowl from BOWL_START: {"path": [(x, y)], "losses": [f]} of length steps+1.

    Stops early once the iterate leaves any sensible range (so a divergent lr yields a short, finite path).
    """
    h = bowl_hessian()
    w = torch.tensor(BOWL_START, dtype=torch.float64)
    path, losses = [], []
    for _ in range(steps + 1):
        path.append((w[0].item(), w[1].item()))
        losses.append((0.5 * w @ h @ w).item())
        if w.abs().max().item() > 1e6:
            break
        w = w - lr * (h @ w)
    return {"path": path, "losses": losses}


def draw_lr_explorer(lr: float, steps: int):
    """The callback behind the learning-rate slider: loss curve and path on the contours, for one lr."""
    run = descend_bowl(lr, steps)
    limit = 2 / max(BOWL_EIGENVALUES)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    plots.loss_curves({f"lr={lr:.3g}": run["losses"]}, ax=left,
                      title=f"loss (stable iff lr < 2/λmax = {limit:.3g})")
    reach = max(3.0, min(12.0, max(abs(v) for p in run["path"] for v in p)))
    plots.contour_with_path(bowl_loss, run["path"], ax=right, extent=(-reach, reach, -reach, reach),
                            title="path on the loss contours")
    fig.tight_layout()
    plt.show()
    return fig


def lr_slider(steps: int, initial_lr: float = 0.05):
    """A log-scale learning-rate slider that redraws `draw_lr_explorer` (returns the widget box)."""
    import ipywidgets as widgets

    slider = widgets.FloatLogSlider(value=initial_lr, base=10, min=-3, max=math.log10(0.5), step=0.05,
                                    description="lr", readout_format=".3f", continuous_update=False)
    out = widgets.interactive_output(lambda lr: draw_lr_explorer(lr, steps), {"lr": slider})
    return widgets.VBox([slider, out])


# ------------------------------------------------------------------ chapter 3: the batch-size slider
BATCH_SIZES = tuple(2**k for k in range(11))     # 1 … 1024, log-spaced


def _slider_problem():
    from .noise import Regression

    if not hasattr(_slider_problem, "cached"):
        _slider_problem.cached = Regression(n=2048, dim=8, noise=1.0, seed=0)
    return _slider_problem.cached


def batch_runs(batch_size: int, lr: float, steps: int, seeds: int = 8):
    """Mini-batch SGD on a fixed linear-regression problem, `seeds` runs from the same start.

    Returns {"mean", "low", "high"}: the full-data loss per step (length steps+1) averaged over the seeds, and
    its 10th and 90th percentile across them (the noise band). Diverging runs are cut at 1e6.
    """
    problem = _slider_problem()
    losses = problem.sgd(batch_size, [lr], steps, seeds=seeds, seed=batch_size)[:, 0, :]   # [seeds, steps+1]
    losses = torch.nan_to_num(losses, nan=1e6, posinf=1e6).clamp(max=1e6)
    low, high = torch.quantile(losses, torch.tensor([0.1, 0.9], dtype=losses.dtype), dim=0)
    return {"mean": losses.mean(0).tolist(), "low": low.tolist(), "high": high.tolist(),
            "loss_min": problem.loss_min}


def draw_batch_explorer(batch_size: int, lr: float, steps: int, memory_fn, budget_bytes: float, seeds: int = 8):
    """The callback behind the batch-size slider: the loss curve with its noise band, and a memory bar.

    `memory_fn(batch_size)` gives the training memory: a number of bytes, or {part: bytes} drawn stacked
    (a "total" entry is left out of the stack).
    """
    run = batch_runs(batch_size, lr, steps, seeds)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), gridspec_kw={"width_ratios": [3, 1]})
    x = range(steps + 1)
    left.fill_between(x, run["low"], run["high"], alpha=0.3, label=f"10–90 % of {seeds} seeds")
    left.plot(x, run["mean"], label=f"mean, batch {batch_size}, lr {lr:.3g}")
    left.axhline(run["loss_min"], color="black", linewidth=0.8, linestyle=":", label="lowest possible loss")
    left.set_yscale("log")
    left.set_xlabel("step")
    left.set_ylabel("full-data loss")
    left.set_title("mini-batch SGD: loss and its noise band")
    left.legend(fontsize="small")

    memory = memory_fn(batch_size)
    parts = {k: v for k, v in memory.items() if k != "total"} if isinstance(memory, dict) else {"memory": memory}
    bottom = 0.0
    for name, value in parts.items():
        right.bar(["batch %d" % batch_size], [value / 2**20], bottom=bottom, label=name)
        bottom += value / 2**20
    right.axhline(budget_bytes / 2**20, color="crimson", linestyle="--", label="budget")
    right.set_ylim(0, max(bottom, budget_bytes / 2**20) * 1.15)
    right.set_ylabel("MiB")
    right.set_title("training memory")
    right.legend(fontsize="small")
    fig.tight_layout()
    plt.show()
    return fig


def batch_slider(memory_fn, budget_bytes: float, steps: int = 60, initial_batch: int = 4, initial_lr: float = 0.05,
                 seeds: int = 8):
    """A batch-size slider (log-spaced: 1, 2, 4, …) and a learning-rate slider redrawing `draw_batch_explorer`."""
    import ipywidgets as widgets

    batch = widgets.SelectionSlider(options=list(BATCH_SIZES), value=initial_batch, description="batch",
                                    continuous_update=False)
    lr = widgets.FloatLogSlider(value=initial_lr, base=10, min=-3, max=0, step=0.1, description="lr",
                                readout_format=".3f", continuous_update=False)
    out = widgets.interactive_output(
        lambda batch_size, lr: draw_batch_explorer(batch_size, lr, steps, memory_fn, budget_bytes, seeds),
        {"batch_size": batch, "lr": lr})
    return widgets.VBox([batch, lr, out])
