# fails: test_adamw_step_
# Canonical mistake: `p.data = ...` gives the parameter new storage instead of updating it in place: the tensor
# object is the same, but every view of it (weight tying, an optimizer's alias, a DDP bucket) keeps the old values.
# Hint: Reread "one AdamW step, in place": the parameter's own memory must hold the new values.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            s = state.setdefault(p, {"t": 0, "m": torch.zeros_like(p), "v": torch.zeros_like(p)})
            s["t"] += 1
            g = p.grad
            s["m"] = beta1 * s["m"] + (1 - beta1) * g
            s["v"] = beta2 * s["v"] + (1 - beta2) * g * g
            m_hat = s["m"] / (1 - beta1 ** s["t"])
            v_hat = s["v"] / (1 - beta2 ** s["t"])
            p.data = p.data * (1 - lr * weight_decay) - lr * m_hat / (v_hat.sqrt() + eps)
