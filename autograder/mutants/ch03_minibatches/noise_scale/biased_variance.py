# Canonical mistake: the variance with 1/N instead of the unbiased 1/(N - 1).
# Hint: Reread how the statement normalises the variance of each coordinate.
def noise_scale(per_sample):
    if per_sample.shape[0] < 2:
        raise ValueError("need at least two rows")
    mean = per_sample.mean(0)
    return (per_sample.var(0, correction=0).sum() / (mean * mean).sum()).item()
