# Canonical mistake: one generator at module level, re-seeded by every call: two loaders alive at once share (and
# re-seed) the same stream, so making a second loader changes the first one's order.
# Hint: Reread "a random generator of your own": each loader's order must not depend on the loaders made after it.
_GENERATOR = torch.Generator()


def make_loader(dataset, batch_size, *, shuffle, drop_last, seed, collate_fn=None):
    _GENERATOR.manual_seed(seed)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last, collate_fn=collate_fn,
                      generator=_GENERATOR)
