# Canonical mistake: drops the in-place line instead of rewriting it, so the rows are no longer centred.
# Hint: Reread the statement's formula for `h`: the centring is part of the computation.
def gated_unit(x, w):
    h = torch.relu(x @ w)
    return h * torch.sigmoid(h)
