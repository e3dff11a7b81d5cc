# Canonical mistake: progress over (total_steps - warmup_steps - 1), so the last decay step already sits at min_lr.
# Hint: Reread the decay bullet: the denominator of `progress`.
def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if warmup_steps > total_steps:
        raise ValueError("warmup_steps > total_steps")
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    if step >= total_steps - 1:
        return float(min_lr)
    progress = (step - warmup_steps) / (total_steps - warmup_steps - 1)
    return min_lr + 0.5 * (base_lr - min_lr) * (1 + math.cos(math.pi * progress))
