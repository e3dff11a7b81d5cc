# fails: test_max_stable_lr_hidden
# Canonical mistake: refuses any H with an eigenvalue <= 0. An eigenvalue of exactly 0 leaves its direction unchanged
# and the loss does not depend on it: only a negative eigenvalue rules out every learning rate.
# Hint: Reread the bullets above the exercise on λ = 0 and the statement's sentence on an eigenvalue of exactly 0.
def max_stable_lr(H):
    if H.ndim != 2 or H.shape[0] != H.shape[1] or not torch.allclose(H, H.T):
        raise ValueError("H must be a square, symmetric matrix")
    eigenvalues = torch.linalg.eigvalsh(H)
    if eigenvalues[0].item() <= 0:
        raise ValueError("H must be positive definite")
    return 2.0 / eigenvalues[-1].item()
