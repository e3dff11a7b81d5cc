# Canonical mistake: regresses log x on log y and returns that slope.
# Hint: Reread the statement: the line through the points (log xᵢ, log yᵢ), fitted for y against x.
def loglog_slope(xs, ys):
    if len(xs) != len(ys) or len(xs) < 2 or min(xs) <= 0 or min(ys) <= 0:
        raise ValueError("bad input")
    return float(np.polyfit(np.log(ys), np.log(xs), 1)[0])
