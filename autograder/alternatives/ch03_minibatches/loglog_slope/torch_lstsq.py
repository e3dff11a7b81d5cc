# torch.linalg.lstsq on the design matrix [log x, 1], in log2.
def loglog_slope(xs, ys):
    x = torch.as_tensor(list(xs), dtype=torch.float64)
    y = torch.as_tensor(list(ys), dtype=torch.float64)
    if x.shape != y.shape or x.numel() < 2 or bool((x <= 0).any()) or bool((y <= 0).any()):
        raise ValueError("invalid points")
    design = torch.stack([torch.log2(x), torch.ones_like(x)], dim=1)
    solution = torch.linalg.lstsq(design, torch.log2(y)[:, None], driver="gelsd").solution
    return solution[0, 0].item()
