# Correct, written differently: F.pad per sequence, then stack; the mask built from Python lists.
def pad_collate(seqs, pad_id):
    longest = max(len(s) for s in seqs)
    padded = torch.stack([F.pad(s, (0, longest - len(s)), value=pad_id) for s in seqs])
    mask = torch.tensor([[t < len(s) - 1 for t in range(longest - 1)] for s in seqs], dtype=torch.bool)
    targets = padded[:, 1:].clone()
    tokens = padded[:, :-1].clone()
    tokens[~mask] = pad_id        # the last real token of a short row is an input nobody needs: pad it
    return tuple([tokens, targets, mask])
