# Canonical mistake: no bias correction: the zero-started averages are used as they are.
# Hint: Reread the second line of formulas: what m and v are divided by before they are used.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            s = state.setdefault(p, {"m": torch.zeros_like(p), "v": torch.zeros_like(p)})
            g = p.grad
            p.mul_(1 - lr * weight_decay)
            s["m"].mul_(beta1).add_(g, alpha=1 - beta1)
            s["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
            p.sub_(lr * s["m"] / (s["v"].sqrt() + eps))
