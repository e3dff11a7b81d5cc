# fails: test_warmup_cosine_hidden
# Canonical mistake: computes progress before the end check, so warmup_steps == total_steps divides by zero.
# Hint: Reread the paragraph on `warmup_steps = total_steps`: there is no decay phase to divide by.
def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if warmup_steps > total_steps:
        raise ValueError("warmup_steps > total_steps")
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    if step >= total_steps:
        return float(min_lr)
    return min_lr + 0.5 * (base_lr - min_lr) * (1 + math.cos(math.pi * progress))
