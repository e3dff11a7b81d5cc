# fails: test_gated_unit_hidden
# Canonical mistake: mean over dim=1, the features only for 2-D x; for x [..., in] with more dimensions it is wrong.
# Hint: Reread the statement: `x` has any number of leading dimensions, and is centred over its last one.
def gated_unit(x, w):
    h = torch.relu((x - x.mean(dim=1, keepdim=True)) @ w)
    return h * torch.sigmoid(h)
