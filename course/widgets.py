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
