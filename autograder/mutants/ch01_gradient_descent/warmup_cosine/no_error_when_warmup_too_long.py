# Canonical mistake: no ValueError when warmup_steps > total_steps; the warmup branch answers first.
# Hint: Reread the last sentence of the statement: when to raise, whatever the step.
def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    if step >= total_steps:
        return float(min_lr)
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + 0.5 * (base_lr - min_lr) * (1 + math.cos(math.pi * progress))
