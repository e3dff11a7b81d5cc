# Canonical mistake: warmup ramps from min_lr to base_lr; the statement ramps base_lr * (step + 1) / warmup_steps.
# Hint: Reread the warmup bullet and its parenthesis: what the ramp starts from, whatever `min_lr` is.
def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if warmup_steps > total_steps:
        raise ValueError("warmup_steps > total_steps")
    if step < warmup_steps:
        return min_lr + (base_lr - min_lr) * (step + 1) / warmup_steps
    if step >= total_steps:
        return float(min_lr)
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + 0.5 * (base_lr - min_lr) * (1 + math.cos(math.pi * progress))
