# Canonical mistake: returns a 0-d tensor, not a Python float (no .item()).
# Hint: Reread the first sentence of the statement: the type the limit is returned as.
def max_stable_lr(H):
    if H.ndim != 2 or H.shape[0] != H.shape[1] or not torch.allclose(H, H.T):
        raise ValueError("H must be a square, symmetric matrix")
    eigenvalues = torch.linalg.eigvalsh(H)
    if eigenvalues[0] < 0:
        raise ValueError("a negative eigenvalue: no learning rate is stable")
    return 2.0 / eigenvalues[-1]
