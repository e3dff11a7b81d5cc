# Canonical mistake: x.mean() centres with one mean over the whole tensor instead of each row's own mean.
# Hint: Reread the statement's formula: the mean over `dim=-1`, kept per row.
def gated_unit(x, w):
    h = torch.relu((x - x.mean()) @ w)
    return h * torch.sigmoid(h)
