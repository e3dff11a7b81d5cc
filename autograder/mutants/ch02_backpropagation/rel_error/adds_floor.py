# Canonical mistake: adds 1e-8 to the denominator instead of taking max(|a| + |b|, 1e-8).
# Hint: Reread the formula in the statement: how the floor of 10⁻⁸ enters the denominator.
def rel_error(a, b):
    a, b = torch.as_tensor(a).double(), torch.as_tensor(b).double()
    return ((a - b).abs() / (a.abs() + b.abs() + 1e-8)).max().item()
