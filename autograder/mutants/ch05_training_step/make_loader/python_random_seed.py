# fails: test_make_loader
# Canonical mistake: the order comes from Python's global `random`, re-seeded with `seed`: the batches are
# reproducible, but every call resets the caller's `random` state.
# Hint: Reread "not the global random state": which generators does the statement say must be left alone?
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    import random
    order = list(range(len(dataset)))
    if shuffle:
        random.seed(seed)
        random.shuffle(order)
    batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
    if drop_last and batches and len(batches[-1]) < batch_size:
        batches.pop()
    return DataLoader(dataset, batch_sampler=batches, collate_fn=collate_fn)
