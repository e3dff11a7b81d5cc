"""Mini-batch noise, measured: the problems and training loops chapter 3 runs its noise experiments on.

A linear-regression problem has an exact answer for everything a noise experiment needs (the optimum, the
Hessian, the loss of any weights without touching the data), so the experiments can afford many batch sizes,
learning rates and seeds at once. Every loop here is vectorised over learning rates and seeds.
"""
import math

import torch
import torch.nn.functional as F


class Regression:
    """y = X w_true + noise, with X [n, dim] standard normal (float64): an isotropic quadratic loss.

    loss(w) = 1/2 mean((X w - y)²) = loss_min + 1/2 (w - w*)ᵀ H (w - w*), with H = XᵀX / n and w* the
    least-squares optimum, so the full-data loss of any weights costs a dim × dim product, not a pass over X.
    """

    def __init__(self, n, dim, noise=1.0, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, dim, generator=g, dtype=torch.float64)
        w_true = torch.randn(dim, generator=g, dtype=torch.float64)
        self.y = self.x @ w_true + noise * torch.randn(n, generator=g, dtype=torch.float64)
        self.hessian = self.x.T @ self.x / n
        self.w_star = torch.linalg.solve(self.hessian, self.x.T @ self.y / n)
        self.loss_min = 0.5 * float(((self.x @ self.w_star - self.y) ** 2).mean())

    @property
    def n(self):
        return self.x.shape[0]

    def loss(self, w):
        """Full-data loss of weights w [..., dim] (any leading shape), from the quadratic form."""
        e = w - self.w_star
        return self.loss_min + 0.5 * torch.einsum("...d,de,...e->...", e, self.hessian, e)

    def weights_at_excess(self, excess):
        """Weights on the straight line from 0 to w* whose loss is loss_min + excess (gradient descent from 0
        on this isotropic problem travels that line)."""
        start = self.loss(torch.zeros_like(self.w_star)) - self.loss_min
        return self.w_star * (1 - math.sqrt(excess / float(start)))

    def sgd(self, batch_size, lrs, steps, seeds=1, seed=0, stop_below=None):
        """Mini-batch SGD from w = 0 for every lr in `lrs` and `seeds` independent runs at once.

        Each step draws, per seed, `batch_size` distinct examples (without replacement). Returns the full-data
        losses [seeds, len(lrs), steps + 1]; with `stop_below`, stops as soon as the seed-averaged loss of some
        lr is at or below it (the losses are then shorter).
        """
        g = torch.Generator().manual_seed(seed)
        lrs = torch.as_tensor(lrs, dtype=torch.float64)
        w = torch.zeros(seeds, len(lrs), self.x.shape[1], dtype=torch.float64)
        losses = [self.loss(w)]
        for _ in range(steps):
            if stop_below is not None and bool((losses[-1].mean(0) <= stop_below).any()):
                break
            idx = torch.stack([torch.randperm(self.n, generator=g)[:batch_size] for _ in range(seeds)])
            xb, yb = self.x[idx], self.y[idx]                                    # [S, B, d], [S, B]
            residual = torch.einsum("sbd,skd->skb", xb, w) - yb[:, None, :]
            w = w - lrs[None, :, None] * torch.einsum("skb,sbd->skd", residual, xb) / batch_size
            losses.append(self.loss(w))
        return torch.stack(losses, dim=-1)

    def steps_to_target(self, batch_size, lrs, target, max_steps, seeds=4, seed=0):
        """Fewest steps after which the seed-averaged loss of the best lr is <= target (inf if never)."""
        losses = self.sgd(batch_size, lrs, max_steps, seeds, seed, stop_below=target)
        reached = (losses.mean(0) <= target).any(0)
        return int(reached.nonzero()[0, 0]) if bool(reached.any()) else math.inf


def fit_steps_model(batch_sizes, steps):
    """Least-squares fit of McCandlish et al.'s S(B) = S_min (1 + B_noise / B): returns (S_min, B_noise).

    S is linear in 1/B: S = S_min + (S_min B_noise) / B. The fit minimises *relative* errors (each point weighted
    by 1/S), so the few steps of large batches count as much as the many of small ones. Batch sizes whose steps
    are infinite are left out.
    """
    pairs = [(1.0 / b, float(s)) for b, s in zip(batch_sizes, steps) if math.isfinite(s)]
    inv = torch.tensor([p[0] for p in pairs], dtype=torch.float64)
    s = torch.tensor([p[1] for p in pairs], dtype=torch.float64)
    weight = 1.0 / s
    design = torch.stack([torch.ones_like(inv), inv], dim=1) * weight[:, None]
    s_min, slope = torch.linalg.lstsq(design, (s * weight)[:, None]).solution[:, 0].tolist()
    return s_min, slope / s_min


def finite_population_noise(trace_cov, n, batch_size):
    """Expected RMS distance of a without-replacement mini-batch mean from the full mean:
    sqrt(tr Σ / B · (n - B) / (n - 1)), with Σ the per-example covariance normalised by n."""
    return math.sqrt(trace_cov / batch_size * (n - batch_size) / (n - 1))


def train_classifier(model, x, y, batch_size, lr, steps, seed=0, eval_at=None):
    """Plain mini-batch SGD on cross-entropy; the model is trained in place.

    Each step draws `batch_size` distinct examples. Returns {"steps", "samples", "loss"}: the full-data loss
    measured at step 0, at every step in `eval_at` (default: every step) and at the last step, with the steps and
    the number of examples seen so far.
    """
    g = torch.Generator().manual_seed(seed)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    wanted = set(range(steps + 1)) if eval_at is None else {0, steps} | {s for s in eval_at if 0 <= s <= steps}
    record = {"steps": [], "samples": [], "loss": []}

    def evaluate(step):
        with torch.no_grad():
            record["steps"].append(step)
            record["samples"].append(step * batch_size)
            record["loss"].append(F.cross_entropy(model(x), y).item())

    evaluate(0)
    for step in range(1, steps + 1):
        idx = torch.randperm(len(x), generator=g)[:batch_size]
        opt.zero_grad()
        F.cross_entropy(model(x[idx]), y[idx]).backward()
        opt.step()
        if step in wanted:
            evaluate(step)
    return record
