# Covariance over variance with math.log and loops.
def loglog_slope(xs, ys):
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("need equal lengths and at least two points")
    if any(v <= 0 for v in list(xs) + list(ys)):
        raise ValueError("non-positive value")
    lx = [math.log(v) for v in xs]
    ly = [math.log(v) for v in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    cov = sum((a - mx) * (b - my) for a, b in zip(lx, ly))
    var = sum((a - mx) ** 2 for a in lx)
    return cov / var
