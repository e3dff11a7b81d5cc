# Canonical mistake: torch.manual_seed(seed) when the loader is made; the order is drawn later, at iteration,
# from whatever the global generator holds by then.
# Hint: Reread the shuffle=True bullet: a generator of the loader's own, not the global one, even seeded.
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    torch.manual_seed(seed)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last, collate_fn=collate_fn)
