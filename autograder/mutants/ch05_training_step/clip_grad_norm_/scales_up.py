# Canonical mistake: no min(1, ...): gradients smaller than max_norm are blown up to it.
# Hint: Reread the factor in the fourth bullet: it never exceeds one.
def clip_grad_norm_(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if not torch.isfinite(total):
        raise RuntimeError("not finite")
    for g in grads:
        g.mul_(max_norm / (total + 1e-6))
    return total
