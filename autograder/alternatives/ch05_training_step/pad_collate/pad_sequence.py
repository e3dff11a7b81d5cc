# Correct, written differently: torch's pad_sequence and a mask from the lengths.
def pad_collate(seqs, pad_id):
    from torch.nn.utils.rnn import pad_sequence
    tokens = pad_sequence([s[:-1] for s in seqs], batch_first=True, padding_value=pad_id)
    targets = pad_sequence([s[1:] for s in seqs], batch_first=True, padding_value=pad_id)
    lengths = torch.tensor([len(s) - 1 for s in seqs])
    mask = torch.arange(tokens.shape[1])[None, :] < lengths[:, None]
    return (tokens.long(), targets.long(), mask)
