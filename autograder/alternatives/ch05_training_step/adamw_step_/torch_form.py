# Correct, written differently: torch's own arrangement (step size lr / bc1, denominator sqrt(v) / sqrt(bc2) + eps),
# state keyed by id(p).
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    for p in params:
        if p.grad is None:
            continue
        if id(p) not in state:
            state[id(p)] = [0, torch.zeros_like(p.detach()), torch.zeros_like(p.detach())]
        entry = state[id(p)]
        entry[0] += 1
        t, m, v = entry
        g = p.grad.detach()
        with torch.no_grad():
            p.mul_(1 - lr * weight_decay)
            m.lerp_(g, 1 - beta1)
            v.mul_(beta2).add_(g * g * (1 - beta2))
            denom = (v.sqrt() / math.sqrt(1 - beta2 ** t)).add_(eps)
            p.addcdiv_(m, denom, value=-lr / (1 - beta1 ** t))
