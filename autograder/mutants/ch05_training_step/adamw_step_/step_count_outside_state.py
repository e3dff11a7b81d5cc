# fails: test_adamw_step__hidden
# Canonical mistake: m and v in `state`, but each parameter's step count in a module-level dict: a fresh state on
# the same parameters restarts the averages at zero and keeps counting steps, so the bias correction is wrong.
# Hint: Reread "t the number of steps this parameter has taken": with an empty `state`, no step has been taken yet.
_STEPS = {}


def adamw_step_(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            s = state.setdefault(p, {"m": torch.zeros_like(p), "v": torch.zeros_like(p)})
            _STEPS[p] = t = _STEPS.get(p, 0) + 1
            g = p.grad
            p.mul_(1 - lr * weight_decay)
            s["m"].mul_(beta1).add_(g, alpha=1 - beta1)
            s["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
            p.sub_(lr * (s["m"] / (1 - beta1 ** t)) / ((s["v"] / (1 - beta2 ** t)).sqrt() + eps))
