# Canonical mistake: params read twice; model.parameters() is a generator, so the second loop clips nothing.
# Hint: Reread the first bullet: a generator such as model.parameters() can be read only once.
def clip_grad_norm_(params, max_norm):
    total = torch.linalg.vector_norm(torch.stack(
        [torch.linalg.vector_norm(p.grad) for p in params if p.grad is not None] or [torch.tensor(0.0)]))
    if not torch.isfinite(total):
        raise RuntimeError("not finite")
    scale = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for p in params:
        if p.grad is not None:
            p.grad.mul_(scale)
    return total
