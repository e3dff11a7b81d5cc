# Canonical mistake: no 1e-8 floor in the denominator: two zeros give 0/0 = nan.
# Hint: Reread the statement's last sentence: where both entries are 0.
def rel_error(a, b):
    a, b = torch.as_tensor(a).double(), torch.as_tensor(b).double()
    return ((a - b).abs() / (a.abs() + b.abs())).max().item()
