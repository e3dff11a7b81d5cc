# Canonical mistake: the last, smaller batch is always kept.
# Hint: Reread the first bullet: what drop_last=True does to a last, smaller batch.
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    generator = torch.Generator().manual_seed(seed)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=False, collate_fn=collate_fn,
                      generator=generator)
