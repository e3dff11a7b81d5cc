# Canonical mistake: adds 1e-8 to the denominator instead of taking max(|a| + |b|, 1e-8).
def rel_error(a, b):
    a, b = torch.as_tensor(a).double(), torch.as_tensor(b).double()
    return ((a - b).abs() / (a.abs() + b.abs() + 1e-8)).max().item()
