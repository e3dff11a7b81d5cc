# Canonical mistake: divides by |b| alone, so the error is not symmetric and a zero reference explodes.
# Hint: Reread the formula in the statement: the denominator uses both tensors.
def rel_error(a, b):
    a, b = torch.as_tensor(a).double(), torch.as_tensor(b).double()
    return ((a - b).abs() / b.abs().clamp_min(1e-8)).max().item()
