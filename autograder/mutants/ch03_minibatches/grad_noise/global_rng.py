# fails: test_grad_noise_hidden
# Canonical mistake: ignores `generator` and draws from the global random number generator, so a seeded
# generator does not repeat the result.
# Hint: Reread where all the randomness must come from.
def grad_noise(per_sample, batch_sizes, draws, generator):
    n = per_sample.shape[0]
    full = per_sample.mean(0)
    result = []
    for b in batch_sizes:
        if not 1 <= b <= n:
            raise ValueError(f"batch size {b} outside 1..{n}")
        sq = [((per_sample[torch.randperm(n)[:b]].mean(0) - full) ** 2).sum().item() for _ in range(draws)]
        result.append(math.sqrt(sum(sq) / draws))
    return result
