# Correct in another style: NumPy's cos and pi (the decay returns a NumPy float64, which is a Python float).
import numpy as np


def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if warmup_steps > total_steps:
        raise ValueError("warmup_steps must not exceed total_steps")
    if step >= total_steps:
        return float(min_lr)
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + (base_lr - min_lr) * 0.5 * (1 + np.cos(np.pi * progress))
