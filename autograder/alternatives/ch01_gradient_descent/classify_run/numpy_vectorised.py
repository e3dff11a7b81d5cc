# Correct in another style: NumPy arrays (np.isfinite, np.diff), the threshold rewritten as 100 * |diff| <= |first|.
import numpy as np


def classify_run(losses):
    a = np.asarray(losses, dtype=np.float64)
    if a.size < 2:
        raise ValueError("need two or more losses")
    first, last = a[0], a[-1]
    if not np.isfinite(a).all() or a.max() > 100 * np.abs(first):
        return "diverged"
    if 100 * np.abs(last - first) <= np.abs(first):
        return "stalled"
    if last > first:
        return "diverged"
    if np.count_nonzero(np.diff(a) > 0) > (a.size - 1) / 4:
        return "oscillating"
    return "converging"
