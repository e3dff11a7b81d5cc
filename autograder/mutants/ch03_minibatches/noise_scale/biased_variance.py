# Canonical mistake: the variance with 1/N instead of the unbiased 1/(N - 1).
# Hint: Reread the second bullet of the statement: the normalisation of the variance.
def noise_scale(per_sample):
    if per_sample.shape[0] < 2:
        raise ValueError("need at least two rows")
    mean = per_sample.mean(0)
    return (per_sample.var(0, unbiased=False).sum() / (mean * mean).sum()).item()
