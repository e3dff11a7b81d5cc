# fails: test_max_stable_lr_hidden
# Canonical mistake: H = 0 refused (or divided by zero); nothing moves at any learning rate, so the limit is inf.
# Hint: Reread the last bullet of the statement: what to return when every eigenvalue is 0.
def max_stable_lr(H):
    if H.ndim != 2 or H.shape[0] != H.shape[1] or not torch.allclose(H, H.T):
        raise ValueError("H must be a square, symmetric matrix")
    eigenvalues = torch.linalg.eigvalsh(H)
    if eigenvalues[0].item() < 0 or eigenvalues[-1].item() <= 0:
        raise ValueError("no positive curvature")
    return 2.0 / eigenvalues[-1].item()
