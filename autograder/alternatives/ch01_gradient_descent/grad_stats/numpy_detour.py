# Correct in another style: a NumPy detour in float64; the values are NumPy float64s, which are Python floats.
import numpy as np


def grad_stats(t):
    a = t.detach().cpu().numpy().astype(np.float64)
    return {"mean": a.mean(), "std": a.std(ddof=1), "min": a.min(), "max": a.max(),
            "nonzero": np.count_nonzero(a) / a.size}
