# Canonical mistake: pads with 0 whatever pad_id says.
# Hint: Reread the first bullet: which id fills the padded positions.
def pad_collate(seqs, pad_id):
    width = max(len(s) for s in seqs) - 1
    tokens = torch.zeros(len(seqs), width, dtype=torch.int64)
    targets = torch.zeros(len(seqs), width, dtype=torch.int64)
    mask = torch.zeros(len(seqs), width, dtype=torch.bool)
    for i, s in enumerate(seqs):
        n = len(s) - 1
        tokens[i, :n] = s[:-1]
        targets[i, :n] = s[1:]
        mask[i, :n] = True
    return tokens, targets, mask
