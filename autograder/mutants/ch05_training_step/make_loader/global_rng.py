# Canonical mistake: shuffle=True without a generator of its own: the order comes from the global random state.
# Hint: Reread the shuffle=True bullet: which random generator draws the order.
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last, collate_fn=collate_fn)
