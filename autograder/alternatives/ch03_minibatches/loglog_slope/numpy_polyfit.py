def loglog_slope(xs, ys):
    if len(xs) != len(ys):
        raise ValueError("xs and ys differ in length")
    if len(xs) < 2:
        raise ValueError("need two points")
    x, y = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
    if (x <= 0).any() or (y <= 0).any():
        raise ValueError("values must be positive")
    return float(np.polyfit(np.log10(x), np.log10(y), deg=1)[0])
