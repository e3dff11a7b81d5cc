# The trace of torch.cov (which normalises by N - 1), in float64.
def noise_scale(per_sample):
    if len(per_sample) < 2:
        raise ValueError("N < 2")
    rows = per_sample.double()
    cov = torch.cov(rows.T).reshape(rows.shape[1], rows.shape[1])
    g = rows.mean(dim=0)
    return float(torch.trace(cov) / torch.dot(g, g))
