# Canonical mistake: the second moment of the rows instead of their variance (not centred on the mean).
# Hint: Reread the statement's definition of a coordinate's variance.
def noise_scale(per_sample):
    if per_sample.shape[0] < 2:
        raise ValueError("need at least two rows")
    mean = per_sample.mean(0)
    n = per_sample.shape[0]
    return ((per_sample ** 2).sum(0).sum() / (n - 1) / (mean * mean).sum()).item()
