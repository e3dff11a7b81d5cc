# Correct in another style: the decay as cos^2(pi*progress/2), equal to (1 + cos(pi*progress))/2; phases by elif.
def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if not warmup_steps <= total_steps:
        raise ValueError("warmup_steps > total_steps")
    if step < warmup_steps:
        lr = base_lr * (step + 1) / warmup_steps
    elif step < total_steps:
        progress = (step - warmup_steps) / (total_steps - warmup_steps)
        lr = min_lr + (base_lr - min_lr) * math.cos(math.pi * progress / 2) ** 2
    else:
        lr = min_lr
    return float(lr)
