# Canonical mistake: padding on the left.
# Hint: Reread the first bullet: on which side the padding goes.
def pad_collate(seqs, pad_id):
    width = max(len(s) for s in seqs) - 1
    tokens = torch.full((len(seqs), width), pad_id, dtype=torch.int64)
    targets = torch.full((len(seqs), width), pad_id, dtype=torch.int64)
    mask = torch.zeros(len(seqs), width, dtype=torch.bool)
    for i, s in enumerate(seqs):
        n = len(s) - 1
        tokens[i, width - n:] = s[:-1]
        targets[i, width - n:] = s[1:]
        mask[i, width - n:] = True
    return tokens, targets, mask
