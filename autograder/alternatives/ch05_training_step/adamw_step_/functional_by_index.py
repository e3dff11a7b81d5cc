# Correct, written differently: new tensors computed out of place and copied in; state is lists indexed by position.
def adamw_step_(params, state, lr, betas, eps, weight_decay):
    params = list(params)
    if not state:
        state["m"] = [torch.zeros_like(p) for p in params]
        state["v"] = [torch.zeros_like(p) for p in params]
        state["t"] = [0] * len(params)
    b1, b2 = betas
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            state["t"][i] = state["t"][i] + 1
            t = state["t"][i]
            state["m"][i] = b1 * state["m"][i] + (1 - b1) * p.grad
            state["v"][i] = b2 * state["v"][i] + (1 - b2) * p.grad ** 2
            m_hat = state["m"][i] / (1 - b1 ** t)
            v_hat = state["v"][i] / (1 - b2 ** t)
            p.copy_(p * (1 - lr * weight_decay) - lr * m_hat / (torch.sqrt(v_hat) + eps))
