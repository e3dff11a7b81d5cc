# Canonical mistake: regresses log x on log y and returns that slope.
# Hint: Reread which of the two logarithms the fitted line predicts.
def loglog_slope(xs, ys):
    if len(xs) != len(ys) or len(xs) < 2 or min(xs) <= 0 or min(ys) <= 0:
        raise ValueError("bad input")
    return float(np.polyfit(np.log(ys), np.log(xs), 1)[0])
