# Canonical mistake: seeds the global generator as well as its own: the order is right, but the caller's random
# state is reset to `seed` behind its back.
# Hint: Reread "not the global random state": making a loader must leave the caller's generators as they were.
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last, collate_fn=collate_fn,
                      generator=generator)
