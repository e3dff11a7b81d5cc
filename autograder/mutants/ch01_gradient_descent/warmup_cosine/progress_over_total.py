# Canonical mistake: progress measured over total_steps instead of the decay phase, so decay never finishes.
# Hint: Reread the decay bullet: what `progress` is measured over.
def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    if step >= total_steps:
        return float(min_lr)
    progress = (step - warmup_steps) / total_steps
    return min_lr + 0.5 * (base_lr - min_lr) * (1 + math.cos(math.pi * progress))
