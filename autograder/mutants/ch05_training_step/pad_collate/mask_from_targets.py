# Canonical mistake: the mask is `targets != pad_id`, so a real target token that happens to equal pad_id is
# treated as padding.
# Hint: Reread the definition of `mask`: which positions count as real is decided by each sequence's length.
def pad_collate(seqs, pad_id):
    width = max(len(s) for s in seqs) - 1
    tokens = torch.full((len(seqs), width), pad_id, dtype=torch.int64)
    targets = torch.full((len(seqs), width), pad_id, dtype=torch.int64)
    for i, s in enumerate(seqs):
        tokens[i, :len(s) - 1] = s[:-1]
        targets[i, :len(s) - 1] = s[1:]
    return tokens, targets, targets != pad_id
