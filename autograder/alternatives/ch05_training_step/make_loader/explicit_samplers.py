# Correct, written differently: explicit samplers, the random one with its own generator.
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    from torch.utils.data import RandomSampler, SequentialSampler
    if shuffle:
        sampler = RandomSampler(dataset, generator=torch.Generator().manual_seed(seed))
    else:
        sampler = SequentialSampler(dataset)
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler, drop_last=drop_last, collate_fn=collate_fn)
