# fails: test_noise_scale_hidden
# Canonical mistake: raises ValueError for one row only; with no row at all it returns nan (and warns).
# Hint: Reread when ValueError is raised: N < 2.
def noise_scale(per_sample):
    if per_sample.shape[0] == 1:
        raise ValueError("need at least two per-example gradients")
    mean = per_sample.mean(0)
    trace = per_sample.var(0, correction=1).sum()
    return (trace / (mean * mean).sum()).item()
