# Canonical mistake: the mean of the element-wise ratios instead of the worst one (hides a single bad entry).
# Hint: Reread the formula in the statement: the maximum over i, not an average.
def rel_error(a, b):
    a, b = torch.as_tensor(a).double(), torch.as_tensor(b).double()
    return ((a - b).abs() / (a.abs() + b.abs()).clamp_min(1e-8)).mean().item()
