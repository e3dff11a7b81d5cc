# Canonical mistake: the seeded generator is made, but the loader never shuffles.
# Hint: Reread the shuffle=True bullet: the order must be drawn, not the dataset order.
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    generator = torch.Generator().manual_seed(seed)
    return DataLoader(dataset, batch_size=batch_size, drop_last=drop_last, collate_fn=collate_fn, generator=generator)
