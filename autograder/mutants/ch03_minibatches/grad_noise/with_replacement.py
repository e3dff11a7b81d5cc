# Canonical mistake: draws the rows with replacement (torch.randint), so a batch of all N rows is still noisy.
# Hint: Reread the statement's words on how a mini-batch's rows are drawn.
def grad_noise(per_sample, batch_sizes, draws, generator):
    n = per_sample.shape[0]
    full = per_sample.mean(0)
    result = []
    for b in batch_sizes:
        if not 1 <= b <= n:
            raise ValueError(f"batch size {b} outside 1..{n}")
        sq = [((per_sample[torch.randint(0, n, (b,), generator=generator)].mean(0) - full) ** 2).sum().item()
              for _ in range(draws)]
        result.append(math.sqrt(sum(sq) / draws))
    return result
