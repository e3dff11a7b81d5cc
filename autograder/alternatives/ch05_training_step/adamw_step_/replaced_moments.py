# Correct, written differently: m and v recomputed out of place and stored back into `state` as a tuple per
# parameter; the parameter updated in place with augmented assignments.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    b1, b2 = betas
    with torch.no_grad():
        for p in params:
            g = p.grad
            if g is None:
                continue
            t, m, v = state.get(p, (0, torch.zeros_like(p), torch.zeros_like(p)))
            t += 1
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            state[p] = (t, m, v)
            p *= 1 - lr * weight_decay
            p -= lr * (m / (1 - b1 ** t)) / ((v / (1 - b2 ** t)).sqrt() + eps)
