# fails: test_clip_grad_norm__hidden
# Canonical mistake: no check for inf/nan: the gradients are multiplied by nan (or 0) and training goes on silently.
# Hint: Reread the third bullet: what must happen when the total norm is inf or nan.
def clip_grad_norm_(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    scale = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for g in grads:
        g.mul_(scale)
    return total
