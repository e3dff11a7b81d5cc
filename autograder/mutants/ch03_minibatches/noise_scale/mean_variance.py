# Canonical mistake: the mean variance per coordinate instead of the trace (the sum).
# Hint: Reread the statement's definition of tr Σ.
def noise_scale(per_sample):
    if per_sample.shape[0] < 2:
        raise ValueError("need at least two rows")
    mean = per_sample.mean(0)
    return (per_sample.var(0).mean() / (mean * mean).sum()).item()
