# fails: test_clip_grad_norm__hidden
# Canonical mistake: min(1, max_norm / total) without the + 1e-6: a tiny total norm gets a different factor (and a
# zero norm divides by zero).
# Hint: Reread the factor in the fourth bullet, term by term.
def clip_grad_norm_(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if not torch.isfinite(total):
        raise RuntimeError("not finite")
    scale = torch.clamp(max_norm / total, max=1.0)
    for g in grads:
        g.mul_(scale)
    return total
