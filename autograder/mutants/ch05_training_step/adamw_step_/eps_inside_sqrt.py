# Canonical mistake: eps under the square root, sqrt(v_hat + eps); invisible while gradients are large against eps.
# Hint: Reread the last formula: where eps is added relative to the square root.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
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
            p.sub_(lr * m_hat / (v_hat + eps).sqrt())
