"""Mini-batch noise, measured: the problems and training loops chapter 3 runs its noise experiments on.

A linear-regression problem has an exact answer for everything a noise experiment needs (the optimum, the
Hessian, the loss of any weights without touching the data), so the experiments can afford many batch sizes,
learning rates and seeds at once. Every loop here is vectorised over learning rates and seeds.
"""
import math

import torch
import torch.nn.functional as F


class Regression:
    """y = X w_true + noise (float64): a quadratic loss whose Hessian is known.

    loss(w) = 1/2 mean((X w - y)²) = loss_min + 1/2 (w - w*)ᵀ H (w - w*), with H = XᵀX / n and w* the
    least-squares optimum, so the full-data loss of any weights costs a dim × dim product, not a pass over X.
    X [n, dim] is standard normal (H close to the identity, not equal to it), or, with `eigenvalues`, built so
    that H has exactly those eigenvalues along random orthogonal directions (all ones: H = I exactly).
    """

    def __init__(self, n, dim, noise=1.0, seed=0, eigenvalues=None):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, dim, generator=g, dtype=torch.float64)
        if eigenvalues is not None:
            eig = torch.as_tensor(eigenvalues, dtype=torch.float64)
            if eig.shape != (dim,) or bool((eig <= 0).any()):
                raise ValueError(f"eigenvalues: expected {dim} positive numbers, got {eigenvalues!r}")
            columns, _ = torch.linalg.qr(self.x)                        # [n, dim], orthonormal columns
            rotation, _ = torch.linalg.qr(torch.randn(dim, dim, generator=g, dtype=torch.float64))
            self.x = math.sqrt(n) * columns @ torch.diag(eig.sqrt()) @ rotation.T
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
        travels that line where H ∝ I)."""
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

    def expected_losses(self, batch_size, lrs, steps, stop_below=None):
        """The expected full-data loss of mini-batch SGD from w = 0, exactly: the mean over infinitely many seeds
        of what `sgd` simulates, for every lr in `lrs` at once. Returns [len(lrs), steps + 1]; with `stop_below`,
        stops as soon as some lr's expected loss is at or below it.

        With e = w - w* and ξ_i = y_i - x_iᵀw* (the residuals at the optimum), a step's mini-batch gradient has
        mean H e and, for B of the n examples drawn without replacement, covariance
        (n - B) / (B (n - 1)) · (1/n Σ_i x_i x_iᵀ (x_iᵀe - ξ_i)² - H e eᵀ H). Both are polynomials in e, so the
        mean m = E[e] and the second moment M = E[e eᵀ] follow a closed recursion:
            m' = (I - lr H) m,
            M' = (I - lr H) M (I - lr H) + lr² (n - B) / (B (n - 1)) · (T:M - 2 T₃·m + C - H M H),
        with T = 1/n Σ x⊗x⊗x⊗x, T₃ = 1/n Σ ξ x⊗x⊗x, C = 1/n Σ ξ² x xᵀ, and E[loss] = loss_min + tr(H M) / 2.
        """
        n, dim = self.x.shape
        if not 1 <= batch_size <= n:
            raise ValueError(f"batch_size {batch_size} outside 1..{n}")
        if not hasattr(self, "_moments"):
            xi = self.y - self.x @ self.w_star
            self._moments = (torch.einsum("na,nb,nc,nd->abcd", self.x, self.x, self.x, self.x) / n,
                             torch.einsum("n,na,nb,nc->abc", xi, self.x, self.x, self.x) / n,
                             torch.einsum("n,na,nb->ab", xi * xi, self.x, self.x) / n)
        fourth, third, second = self._moments
        h = self.hessian
        lrs = torch.as_tensor(lrs, dtype=torch.float64)
        shrink = torch.eye(dim, dtype=torch.float64) - lrs[:, None, None] * h              # [K, d, d]
        noise_factor = (lrs ** 2 * (n - batch_size) / (batch_size * (n - 1)))[:, None, None]
        m = (-self.w_star).expand(len(lrs), dim).clone()
        second_moment = torch.outer(self.w_star, self.w_star).expand(len(lrs), dim, dim).clone()
        losses = [self.loss_min + 0.5 * torch.einsum("de,ked->k", h, second_moment)]
        for _ in range(steps):
            if stop_below is not None and bool((losses[-1] <= stop_below).any()):
                break
            grad_second = (torch.einsum("abcd,kcd->kab", fourth, second_moment)
                           - 2 * torch.einsum("abc,kc->kab", third, m) + second)
            covariance = grad_second - h @ second_moment @ h
            second_moment = shrink @ second_moment @ shrink + noise_factor * covariance
            m = torch.einsum("kde,ke->kd", shrink, m)
            losses.append(self.loss_min + 0.5 * torch.einsum("de,ked->k", h, second_moment))
        return torch.stack(losses, dim=-1)

    def steps_to_target(self, batch_size, lrs, target, max_steps):
        """How many steps mini-batch SGD needs, at the best lr of `lrs`, until its expected loss
        (`expected_losses`) reaches `target`.

        Returns (steps, lr). Steps are fractional: the excess loss (loss - loss_min) is interpolated
        geometrically between the last step above the target and the first at or below it, so counts of a few
        steps are not rounded to whole ones. (inf, None) if no lr gets there within `max_steps`.
        """
        losses = self.expected_losses(batch_size, lrs, max_steps, stop_below=target)
        best, best_lr = math.inf, None
        for lr, curve in zip(torch.as_tensor(lrs, dtype=torch.float64).tolist(), losses):
            reached = (curve <= target).nonzero()
            if len(reached) == 0:
                continue
            step = int(reached[0, 0])
            if step == 0:
                return 0.0, lr
            before, after = (math.log(float(curve[i]) - self.loss_min) for i in (step - 1, step))
            steps = step - 1 + (before - math.log(target - self.loss_min)) / (before - after)
            if steps < best:
                best, best_lr = steps, lr
        return best, best_lr


def fit_steps_model(batch_sizes, steps):
    """Least-squares fit of McCandlish et al.'s S(B) = S_min (1 + B_crit / B): returns (S_min, B_crit).

    B_crit = E_min / S_min is their critical batch size: there a run takes twice the fewest steps (S_min) and
    twice the fewest examples (E_min). S is linear in 1/B: S = S_min + (S_min B_crit) / B. The fit minimises *relative* errors (each point weighted
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


def hessian_noise_scale(per_sample, hessian):
    """McCandlish et al.'s B_noise = tr(HΣ) / (Gᵀ H G): per-example gradients `per_sample` [N, P] (their mean is
    G, their covariance Σ, normalised by N - 1) weighted by the Hessian `hessian` [P, P]. Where H ∝ I it equals
    B_simple = tr Σ / |G|²."""
    per_sample = per_sample.double()
    hessian = hessian.double()
    mean = per_sample.mean(0)
    centred = per_sample - mean
    trace_h_cov = torch.einsum("np,pq,nq->", centred, hessian, centred) / (per_sample.shape[0] - 1)
    return float(trace_h_cov / (mean @ hessian @ mean))


def two_batch_estimates(sq_small, b_small, sq_big, b_big):
    """McCandlish et al.'s appendix A.1: unbiased estimates (|G|², tr Σ) from the mean squared norms of
    mini-batch gradients at two batch sizes, `sq_small` = mean |g_b_small|², `sq_big` = mean |g_b_big|², for
    batches of independently drawn examples, where E |g_B|² = |G|² + tr Σ / B."""
    if not 0 < b_small < b_big:
        raise ValueError(f"need 0 < b_small < b_big, got {b_small} and {b_big}")
    g_squared = (b_big * sq_big - b_small * sq_small) / (b_big - b_small)
    trace_cov = (sq_small - sq_big) / (1 / b_small - 1 / b_big)
    return g_squared, trace_cov


def data_parallel_sq_norms(model, loss_fn, x, y, b_small, workers, draws, generator):
    """What data-parallel training sees for free: each of `workers` workers takes the gradient of its own
    `b_small` examples (one backward each), and the all-reduced gradient is their mean, a batch of
    b_small × workers. Over `draws` such steps, with examples drawn independently (with replacement), returns
    (mean |g_small|² over workers and draws, mean |g_big|² over draws), in float64. The model's `.grad` is
    left untouched."""
    params = [p for p in model.parameters() if p.requires_grad]
    small, big = [], []
    for _ in range(draws):
        idx = torch.randint(len(x), (workers, b_small), generator=generator)
        grads = torch.stack([
            torch.cat([g.flatten() for g in torch.autograd.grad(loss_fn(model(x[i]), y[i]), params)]).double()
            for i in idx])                                                           # [workers, P]
        small.append((grads * grads).sum(1).mean())
        big.append((grads.mean(0) ** 2).sum())
    return torch.stack(small).mean().item(), torch.stack(big).mean().item()


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
