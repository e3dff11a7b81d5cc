# Canonical mistake: centres over dim 0 (the batch) instead of each row's features.
# Hint: Reread the statement: each row of `x` centred over its own `in` features.
def gated_unit(x, w):
    h = torch.relu((x - x.mean(dim=0, keepdim=True)) @ w)
    return h * torch.sigmoid(h)
