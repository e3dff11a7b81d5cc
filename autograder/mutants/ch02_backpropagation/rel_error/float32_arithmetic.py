# Canonical mistake: converts with .float(), so the ratio is computed in float32 and tiny differences vanish.
# Hint: Reread the statement: the precision the ratio is computed in, after converting the inputs.
def rel_error(a, b):
    a, b = torch.as_tensor(a).float(), torch.as_tensor(b).float()
    return ((a - b).abs() / (a.abs() + b.abs()).clamp_min(1e-8)).max().item()
