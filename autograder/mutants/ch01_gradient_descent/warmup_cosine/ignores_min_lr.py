# Canonical mistake: the cosine decays to zero and ignores the floor min_lr.
# Hint: Reread the decay bullet: the floor the cosine decays to.
def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    if step >= total_steps:
        return float(min_lr)
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return 0.5 * base_lr * (1 + math.cos(math.pi * progress))
