# Canonical mistake: takes the first B rows every time instead of a random batch.
# Hint: Reread how each mini-batch is chosen.
def grad_noise(per_sample, batch_sizes, draws, generator):
    n = per_sample.shape[0]
    full = per_sample.mean(0)
    result = []
    for b in batch_sizes:
        if not 1 <= b <= n:
            raise ValueError(f"batch size {b} outside 1..{n}")
        result.append((per_sample[:b].mean(0) - full).norm().item())
    return result
