# fails: test_clip_grad_norm_
# Canonical mistake: `p.grad = p.grad * scale` binds a new tensor instead of scaling in place: anything that held the
# gradient (a view, a DDP bucket, a hook's reference) keeps the unclipped values.
# Hint: Reread "multiply every gradient in place".
def clip_grad_norm_(params, max_norm):
    with_grad = [p for p in params if p.grad is not None]
    if not with_grad:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad) for p in with_grad]))
    if not torch.isfinite(total):
        raise RuntimeError("not finite")
    scale = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for p in with_grad:
        p.grad = p.grad * scale
    return total
