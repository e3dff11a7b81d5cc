# fails: test_max_stable_lr_hidden
# Canonical mistake: demands exact symmetry (H == H.T everywhere); a computed Hessian is symmetric only up to
# rounding, which torch.allclose allows.
# Hint: Reread the first bullet of the statement: symmetric up to rounding, and with which check.
def max_stable_lr(H):
    if H.ndim != 2 or H.shape[0] != H.shape[1] or not bool((H == H.T).all()):
        raise ValueError("H must be a square, symmetric matrix")
    eigenvalues = torch.linalg.eigvalsh(H)
    if eigenvalues[0].item() < 0:
        raise ValueError("a negative eigenvalue: no learning rate is stable")
    lam_max = eigenvalues[-1].item()
    return math.inf if lam_max == 0 else 2.0 / lam_max
