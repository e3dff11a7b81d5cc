# fails: test_loglog_slope_hidden
# Canonical mistake: no input checks (a zero becomes -inf, unequal lengths are silently cut).
# Hint: Reread the cases that must raise ValueError.
def loglog_slope(xs, ys):
    n = min(len(xs), len(ys))
    lx = [math.log(x) if x > 0 else float("-inf") for x in xs[:n]]
    ly = [math.log(y) if y > 0 else float("-inf") for y in ys[:n]]
    mx, my = sum(lx) / n, sum(ly) / n
    den = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / den if den else float("nan")
