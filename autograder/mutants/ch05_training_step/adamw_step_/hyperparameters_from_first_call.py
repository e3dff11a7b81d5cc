# fails: test_adamw_step__hidden
# Canonical mistake: lr, betas, eps and weight_decay are stored in `state` at the first call and used from there
# on, as if they were fixed: a learning-rate schedule is silently ignored.
# Hint: Reread the formulas: each call's own lr (and other arguments) define that call's step.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    hyper = state.setdefault("hyper", (lr, betas, eps, weight_decay))
    lr, (beta1, beta2), eps, weight_decay = hyper
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            s = state.setdefault(p, {"t": 0, "m": torch.zeros_like(p), "v": torch.zeros_like(p)})
            s["t"] += 1
            g = p.grad
            p.mul_(1 - lr * weight_decay)
            s["m"].mul_(beta1).add_(g, alpha=1 - beta1)
            s["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
            m_hat = s["m"] / (1 - beta1 ** s["t"])
            v_hat = s["v"] / (1 - beta2 ** s["t"])
            p.sub_(lr * m_hat / (v_hat.sqrt() + eps))
