# fails: test_adamw_step__hidden
# Canonical mistake: one step counter for all parameters: a parameter skipped (no .grad) gets the wrong bias correction.
# Hint: Reread the definition of t: the steps *this parameter* has taken, and what happens to t when .grad is None.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    state["t"] = state.get("t", 0) + 1
    t = state["t"]
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            s = state.setdefault(p, {"m": torch.zeros_like(p), "v": torch.zeros_like(p)})
            g = p.grad
            p.mul_(1 - lr * weight_decay)
            s["m"].mul_(beta1).add_(g, alpha=1 - beta1)
            s["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
            p.sub_(lr * (s["m"] / (1 - beta1 ** t)) / ((s["v"] / (1 - beta2 ** t)).sqrt() + eps))
