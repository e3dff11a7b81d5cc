# fails: test_make_loader_hidden
# Canonical mistake: replaces collate_fn=None by torch.stack, which cannot collate (tensor, label) items as
# DataLoader's default does.
# Hint: Reread what collate_fn=None means: DataLoader's default collation.
def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    g = torch.Generator().manual_seed(seed)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last,
                      collate_fn=collate_fn or torch.stack, generator=g)
