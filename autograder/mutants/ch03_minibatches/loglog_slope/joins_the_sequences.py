# fails: test_loglog_slope_hidden
# Canonical mistake: checks positivity on xs + ys, which fails when one is a tuple and the other a list.
# Hint: Reread which sequences xs and ys may be: lists or tuples, each its own.
def loglog_slope(xs, ys):
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("need two sequences of equal length >= 2")
    if min(xs + ys) <= 0:
        raise ValueError("log-log slope needs positive values")
    lx = torch.log(torch.tensor(xs, dtype=torch.float64))
    ly = torch.log(torch.tensor(ys, dtype=torch.float64))
    dx = lx - lx.mean()
    return ((dx * (ly - ly.mean())).sum() / (dx * dx).sum()).item()
