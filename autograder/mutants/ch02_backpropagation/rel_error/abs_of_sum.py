# Canonical mistake: |a + b| in the denominator for |a| + |b|: right while the signs agree, huge where they differ.
# Hint: Reread the statement's sentence on the denominator: the sum of the two magnitudes.
def rel_error(a, b):
    a, b = torch.as_tensor(a).double(), torch.as_tensor(b).double()
    return ((a - b).abs() / (a + b).abs().clamp_min(1e-8)).max().item()
