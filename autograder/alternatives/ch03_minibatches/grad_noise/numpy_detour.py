# A NumPy detour: a NumPy generator seeded from `generator`, and NumPy arithmetic.
def grad_noise(per_sample, batch_sizes, draws, generator):
    rows = per_sample.detach().double().numpy()
    n = rows.shape[0]
    for b in batch_sizes:
        if not (1 <= b <= n):
            raise ValueError(f"batch size {b} is not in 1..{n}")
    rng = np.random.default_rng(int(torch.randint(0, 2**62, (1,), generator=generator)))
    full = rows.mean(axis=0)
    result = []
    for b in batch_sizes:
        sq = [np.sum((rows[rng.choice(n, size=b, replace=False)].mean(axis=0) - full) ** 2) for _ in range(draws)]
        result.append(float(np.sqrt(np.mean(sq))))
    return result
