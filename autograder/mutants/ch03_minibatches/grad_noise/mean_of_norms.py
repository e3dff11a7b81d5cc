# Canonical mistake: the mean of the distances instead of their root-mean-square.
# Hint: Reread the quantity returned for each batch size.
def grad_noise(per_sample, batch_sizes, draws, generator):
    n = per_sample.shape[0]
    full = per_sample.mean(0)
    result = []
    for b in batch_sizes:
        if not 1 <= b <= n:
            raise ValueError(f"batch size {b} outside 1..{n}")
        dist = [(per_sample[torch.randperm(n, generator=generator)[:b]].mean(0) - full).norm().item()
                for _ in range(draws)]
        result.append(sum(dist) / draws)
    return result
