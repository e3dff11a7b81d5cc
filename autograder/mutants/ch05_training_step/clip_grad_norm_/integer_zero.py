# fails: test_clip_grad_norm__hidden
# Canonical mistake: returns torch.tensor(0), an int64 zero, when there is no gradient.
# Hint: Reread what is returned when no parameter has a gradient: torch.tensor(0.0).
def clip_grad_norm_(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if not torch.isfinite(total):
        raise RuntimeError(f"the total gradient norm is {total.item()}: not finite")
    scale = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for g in grads:
        g.mul_(scale)
    return total
