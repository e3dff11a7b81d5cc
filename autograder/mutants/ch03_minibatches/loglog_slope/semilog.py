# Canonical mistake: takes the log of y only (a semi-log fit).
# Hint: Reread which coordinates the statement takes the logarithm of.
def loglog_slope(xs, ys):
    if len(xs) != len(ys) or len(xs) < 2 or min(xs) <= 0 or min(ys) <= 0:
        raise ValueError("bad input")
    return float(np.polyfit(np.asarray(xs, dtype=float), np.log(ys), 1)[0])
