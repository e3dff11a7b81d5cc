# Alternative style: torch.where for the floor, .to(torch.float64), and float() on the detached 0-d result.
def rel_error(a, b):
    a, b = a.detach().to(torch.float64), b.detach().to(torch.float64)
    den = a.abs() + b.abs()
    den = torch.where(den < 1e-8, torch.full_like(den, 1e-8), den)
    return float(torch.amax((a - b).abs() / den))
