def noise_scale(per_sample):
    rows = per_sample.detach().cpu().numpy().astype(np.float64)
    if rows.shape[0] < 2:
        raise ValueError("noise_scale needs at least two per-example gradients")
    g = rows.mean(axis=0)
    return float(rows.var(axis=0, ddof=1).sum() / np.dot(g, g))
