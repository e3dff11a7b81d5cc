# Sums of squared deviations row by row.
def noise_scale(per_sample):
    n = per_sample.shape[0]
    if n < 2:
        raise ValueError("at least two rows are needed")
    mean = sum(per_sample[i] for i in range(n)) / n
    squared = sum(((per_sample[i] - mean) ** 2).sum() for i in range(n))
    return (squared / (n - 1) / (mean ** 2).sum()).item()
