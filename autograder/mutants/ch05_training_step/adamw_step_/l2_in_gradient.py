# Canonical mistake: weight decay added to the gradient (L2, Adam's weight_decay), so it goes through m and v.
# Hint: Reread the first formula: the decay acts on p itself, separately from g, m and v.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            s = state.setdefault(p, {"t": 0, "m": torch.zeros_like(p), "v": torch.zeros_like(p)})
            s["t"] += 1
            g = p.grad + weight_decay * p
            s["m"].mul_(beta1).add_(g, alpha=1 - beta1)
            s["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
            m_hat = s["m"] / (1 - beta1 ** s["t"])
            v_hat = s["v"] / (1 - beta2 ** s["t"])
            p.sub_(lr * m_hat / (v_hat.sqrt() + eps))
