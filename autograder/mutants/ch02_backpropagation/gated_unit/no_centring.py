# Canonical mistake: drops the in-place line instead of rewriting it, so the rows are no longer centred.
def gated_unit(x, w):
    h = torch.relu(x @ w)
    return h * torch.sigmoid(h)
