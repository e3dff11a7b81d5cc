# Canonical mistake: the mask is `tokens != pad_id`, so a real input token equal to pad_id hides its target.
# Hint: Reread the definition of `mask`: it marks the first len(seqs[i]) - 1 positions, whatever the tokens hold.
def pad_collate(seqs, pad_id):
    from torch.nn.utils.rnn import pad_sequence
    tokens = pad_sequence([s[:-1] for s in seqs], batch_first=True, padding_value=pad_id)
    targets = pad_sequence([s[1:] for s in seqs], batch_first=True, padding_value=pad_id)
    return tokens, targets, tokens != pad_id
