# fails: test_clip_grad_norm__hidden
# Canonical mistake: clips only when total > max_norm: where total is within 1e-6 of max_norm the statement's factor
# is below one and this one is not.
# Hint: Reread the fourth bullet: the factor is applied whenever the norm is finite, under no condition of your own.
# Equivalent: no_epsilon
def clip_grad_norm_(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if not torch.isfinite(total):
        raise RuntimeError("not finite")
    if total > max_norm:
        for g in grads:
            g.mul_(max_norm / (total + 1e-6))
    return total
