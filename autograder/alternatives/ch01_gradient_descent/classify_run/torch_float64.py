# Correct in another style: vectorised with a float64 tensor (isfinite, diff, sum), then the same rules.
def classify_run(losses):
    if len(losses) < 2:
        raise ValueError("classify_run needs at least two losses")
    t = torch.tensor(losses, dtype=torch.float64)
    first, last = t[0].item(), t[-1].item()
    if not torch.isfinite(t).all().item() or t.max().item() > 100 * abs(first):
        return "diverged"
    if abs(last - first) <= 0.01 * abs(first):
        return "stalled"
    if last > first:
        return "diverged"
    rises = int((t.diff() > 0).sum().item())
    return "oscillating" if rises > 0.25 * (len(losses) - 1) else "converging"
