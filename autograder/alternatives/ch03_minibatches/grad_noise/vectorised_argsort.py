# All draws at once: the first B columns of argsort(uniform noise) are B distinct rows per draw.
def grad_noise(per_sample, batch_sizes, draws, generator):
    n = per_sample.shape[0]
    if any(b < 1 or b > n for b in batch_sizes):
        raise ValueError("every batch size must be between 1 and N")
    full = per_sample.mean(dim=0)
    out = []
    for b in batch_sizes:
        idx = torch.rand(draws, n, generator=generator).argsort(dim=1)[:, :b]      # [draws, b]
        g_b = per_sample[idx].mean(dim=1)                                         # [draws, P]
        out.append(float(((g_b - full) ** 2).sum(dim=1).mean().sqrt()))
    return out
