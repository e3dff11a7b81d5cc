# fails: test_grad_noise_hidden
# Canonical mistake: no check of the batch sizes (a batch larger than N silently becomes all N rows).
# Hint: Reread which batch sizes must raise ValueError.
def grad_noise(per_sample, batch_sizes, draws, generator):
    n = per_sample.shape[0]
    full = per_sample.mean(0)
    result = []
    for b in batch_sizes:
        sq = [((per_sample[torch.randperm(n, generator=generator)[:b]].mean(0) - full) ** 2).sum().item()
              for _ in range(max(draws, 1))]
        result.append(math.sqrt(sum(sq) / len(sq)))
    return result
