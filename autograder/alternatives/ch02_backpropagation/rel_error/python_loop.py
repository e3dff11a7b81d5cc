# Alternative style: a loop over Python floats (tolist() gives float64 values, exact for float32 inputs too).
def rel_error(a, b):
    worst = 0.0
    for u, v in zip(a.flatten().tolist(), b.flatten().tolist()):
        worst = max(worst, abs(u - v) / max(abs(u) + abs(v), 1e-8))
    return worst
