# Canonical mistake: the slope between the first and the last point instead of the least-squares fit.
# Hint: Reread which straight line the statement asks for.
def loglog_slope(xs, ys):
    if len(xs) != len(ys) or len(xs) < 2 or min(xs) <= 0 or min(ys) <= 0:
        raise ValueError("bad input")
    return (math.log(ys[-1]) - math.log(ys[0])) / (math.log(xs[-1]) - math.log(xs[0]))
