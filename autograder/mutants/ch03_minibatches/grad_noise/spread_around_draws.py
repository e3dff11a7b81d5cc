# fails: test_grad_noise_hidden
# Canonical mistake: measures the spread of the drawn g_B around their own mean (a variance over the draws),
# not their distance from g, the mean of all N rows.
# Hint: Reread what each draw's distance is measured from.
def grad_noise(per_sample, batch_sizes, draws, generator):
    n = per_sample.shape[0]
    result = []
    for b in batch_sizes:
        if not 1 <= b <= n:
            raise ValueError(f"batch size {b} outside 1..{n}")
        g_b = torch.stack([per_sample[torch.randperm(n, generator=generator)[:b]].mean(0) for _ in range(draws)])
        result.append(math.sqrt(g_b.var(0).sum().item()))
    return result
