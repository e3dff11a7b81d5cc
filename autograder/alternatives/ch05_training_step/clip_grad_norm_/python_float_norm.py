# Correct, written differently: the norm added up in Python floats (float64), one scale factor, in-place multiply.
def clip_grad_norm_(params, max_norm):
    grads = []
    for p in params:
        if p.grad is not None:
            grads.append(p.grad)
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = math.sqrt(sum(float((g.double() ** 2).sum()) for g in grads))
    if not math.isfinite(total):
        raise RuntimeError("non-finite total gradient norm")
    factor = min(1.0, max_norm / (total + 1e-6))
    for g in grads:
        g.mul_(factor)
    return torch.tensor(total)
