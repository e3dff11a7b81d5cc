# Correct in another style: NumPy (shape, np.allclose with the same default tolerances, np.linalg.eigvalsh);
# returns a NumPy float64, which is a Python float.
import numpy as np


def max_stable_lr(H):
    a = H.detach().cpu().numpy()
    if a.ndim != 2 or a.shape[0] != a.shape[1] or not np.allclose(a, a.T):
        raise ValueError("H must be a square, symmetric matrix")
    eigenvalues = np.linalg.eigvalsh(a)
    if eigenvalues.min() < 0:
        raise ValueError("H has a negative eigenvalue: no learning rate is stable")
    top = eigenvalues.max()
    return np.float64(np.inf) if top == 0 else 2.0 / np.float64(top)
