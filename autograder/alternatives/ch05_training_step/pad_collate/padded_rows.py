# Correct, written differently: each row padded on its own with F.pad, the mask padded from a row of ones.
def pad_collate(seqs, pad_id):
    width = max(s.numel() for s in seqs) - 1
    rows_tok, rows_tgt, rows_mask = [], [], []
    for s in seqs:
        gap = width - (s.numel() - 1)
        rows_tok.append(F.pad(s[:-1].long(), (0, gap), value=pad_id))
        rows_tgt.append(F.pad(s[1:].long(), (0, gap), value=pad_id))
        rows_mask.append(F.pad(torch.ones(s.numel() - 1, dtype=torch.bool), (0, gap), value=False))
    return torch.stack(rows_tok), torch.stack(rows_tgt), torch.stack(rows_mask)
