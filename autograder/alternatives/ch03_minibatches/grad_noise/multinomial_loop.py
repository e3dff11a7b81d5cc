# torch.multinomial without replacement, and plain Python sums.
def grad_noise(per_sample, batch_sizes, draws, generator):
    n = per_sample.shape[0]
    full = per_sample.mean(0)
    weights = torch.ones(n)
    noise = []
    for b in batch_sizes:
        if b < 1 or b > n:
            raise ValueError("batch size out of range")
        total = 0.0
        for _ in range(draws):
            rows = torch.multinomial(weights, b, replacement=False, generator=generator)
            total += torch.linalg.vector_norm(per_sample[rows].mean(0) - full).item() ** 2
        noise.append((total / draws) ** 0.5)
    return noise
