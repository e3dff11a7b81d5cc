# fails: test_adamw_step_
# Canonical mistake: the first moment's (1 - beta1) factor is applied to p.grad in place: the step is right, but the
# caller's gradient comes back scaled.
# Hint: Reread the update rules: `g = p.grad` is read by the step; nothing in the statement changes it.
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
            s["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
            s["m"].mul_(beta1).add_(g.mul_(1 - beta1))
            m_hat = s["m"] / (1 - beta1 ** s["t"])
            v_hat = s["v"] / (1 - beta2 ** s["t"])
            p.sub_(lr * m_hat / (v_hat.sqrt() + eps))
