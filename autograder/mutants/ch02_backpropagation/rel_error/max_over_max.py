# Canonical mistake: the largest difference over the largest magnitude: a tensor-wide ratio, blind to small entries.
# Hint: Reread the formula in the statement: where the maximum over i is taken.
def rel_error(a, b):
    a, b = torch.as_tensor(a).double(), torch.as_tensor(b).double()
    return ((a - b).abs().max() / max((a.abs() + b.abs()).max().item(), 1e-8)).item()
