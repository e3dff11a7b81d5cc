# Canonical mistake: each gradient clipped by its own norm; the update's direction changes.
# Hint: Reread the second bullet: one total norm over all gradients together.
def clip_grad_norm_(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if not torch.isfinite(total):
        raise RuntimeError("not finite")
    for g in grads:
        g.mul_(torch.clamp(max_norm / (torch.linalg.vector_norm(g) + 1e-6), max=1.0))
    return total
