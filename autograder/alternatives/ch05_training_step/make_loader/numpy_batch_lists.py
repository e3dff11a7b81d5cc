# Correct, written differently: the order from NumPy's seeded generator, cut into a fixed list of index batches
# (every pass repeats it, which the statement allows).
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    import numpy as np
    n = len(dataset)
    order = np.random.default_rng(seed).permutation(n).tolist() if shuffle else list(range(n))
    batches = []
    for start in range(0, n, batch_size):
        chunk = order[start:start + batch_size]
        if len(chunk) == batch_size or not drop_last:
            batches.append(chunk)
    return DataLoader(dataset, batch_sampler=batches, collate_fn=collate_fn)
