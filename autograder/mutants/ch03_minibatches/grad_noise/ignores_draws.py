# fails: test_grad_noise_hidden
# Canonical mistake: draws a fixed 2000 mini-batches whatever `draws` says.
# Hint: Reread how many mini-batches each batch size draws.
def grad_noise(per_sample, batch_sizes, draws, generator):
    n = per_sample.shape[0]
    full = per_sample.mean(0)
    result = []
    for b in batch_sizes:
        if not 1 <= b <= n:
            raise ValueError(f"batch size {b} outside 1..{n}")
        squared = [((per_sample[torch.randperm(n, generator=generator)[:b]].mean(0) - full) ** 2).sum()
                   for _ in range(2000)]
        result.append(math.sqrt(torch.stack(squared).mean().item()))
    return result
