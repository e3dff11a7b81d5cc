# fails: test_adamw_step__hidden
# Canonical mistake: keeps running products of the betas for the bias correction, so betas that change between
# calls correct with the old ones.
# Hint: Reread the bias correction: 1 - beta1**t with this call's beta1.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            s = state.setdefault(p, {"t": 0, "m": torch.zeros_like(p), "v": torch.zeros_like(p), "b1": 1.0, "b2": 1.0})
            s["b1"] *= beta1
            s["b2"] *= beta2
            s["t"] += 1
            g = p.grad
            p.mul_(1 - lr * weight_decay)
            s["m"].mul_(beta1).add_(g, alpha=1 - beta1)
            s["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
            m_hat = s["m"] / (1 - s["b1"])
            v_hat = s["v"] / (1 - s["b2"])
            p.sub_(lr * m_hat / (v_hat.sqrt() + eps))
    return None
