# Canonical mistake: warmup starts at 0 (step / warmup_steps), so the first step does not move at all.
# Hint: Reread the warmup bullet: the formula's numerator, and the parenthesis on the first step.
def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return base_lr * step / warmup_steps
    if step >= total_steps:
        return float(min_lr)
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + 0.5 * (base_lr - min_lr) * (1 + math.cos(math.pi * progress))
