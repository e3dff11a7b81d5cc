# Canonical mistake: the mask marks len(seq) positions (the inputs) instead of len(seq) - 1 (the real targets).
# Hint: Reread the definition of mask: how many positions of row i hold a real target.
def pad_collate(seqs, pad_id):
    width = max(len(s) for s in seqs) - 1
    tokens = torch.full((len(seqs), width), pad_id, dtype=torch.int64)
    targets = torch.full((len(seqs), width), pad_id, dtype=torch.int64)
    mask = torch.zeros(len(seqs), width, dtype=torch.bool)
    for i, s in enumerate(seqs):
        n = len(s) - 1
        tokens[i, :n] = s[:-1]
        targets[i, :n] = s[1:]
        mask[i, :len(s)] = True
    return tokens, targets, mask
