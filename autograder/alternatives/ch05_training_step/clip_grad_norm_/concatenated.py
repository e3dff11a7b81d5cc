# Correct, written differently: all gradients flattened into one vector; clip only when the factor is below one.
def clip_grad_norm_(params, max_norm):
    with_grad = [p for p in params if p.grad is not None]
    if not with_grad:
        return torch.tensor(0.0)
    total = torch.cat([p.grad.reshape(-1) for p in with_grad]).norm(2)
    if torch.isinf(total) or torch.isnan(total):
        raise RuntimeError("gradient norm is inf or nan")
    coefficient = max_norm / (total + 1e-6)
    if coefficient < 1:
        for p in with_grad:
            p.grad.mul_(coefficient)
    return total
