# Canonical mistake: returns a 0-d tensor instead of a Python float (forgets .item()).
# Hint: Reread the statement: the type of the returned value, and how to take it out of the tensor.
def rel_error(a, b):
    a, b = torch.as_tensor(a).double(), torch.as_tensor(b).double()
    return ((a - b).abs() / (a.abs() + b.abs()).clamp_min(1e-8)).max()
