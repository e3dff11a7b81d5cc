# Canonical mistake: the last, smaller batch is always kept.
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    generator = torch.Generator().manual_seed(seed)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=False, collate_fn=collate_fn,
                      generator=generator)
