# Canonical mistake: m and v created with torch.zeros(p.shape), always float32: a float64 parameter's averages are
# rounded to float32 at every step.
# Hint: Reread how m and v start: shaped like p, and of p's dtype.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            s = state.setdefault(p, {"t": 0, "m": torch.zeros(p.shape), "v": torch.zeros(p.shape)})
            s["t"] += 1
            g = p.grad
            p.mul_(1 - lr * weight_decay)
            s["m"].mul_(beta1).add_(g, alpha=1 - beta1)
            s["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
            m_hat = s["m"] / (1 - beta1 ** s["t"])
            v_hat = s["v"] / (1 - beta2 ** s["t"])
            p.sub_(lr * m_hat / (v_hat.sqrt() + eps))
