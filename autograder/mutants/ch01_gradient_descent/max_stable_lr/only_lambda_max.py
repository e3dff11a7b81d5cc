# Canonical mistake: "only lambda_max matters" -- returns 2/lambda_max for an indefinite H, where the negative
# eigenvalue's direction grows by 1 + lr*|lambda| at every step for any lr > 0.
# Hint: Reread the bullets above the exercise on a negative eigenvalue, and the statement's third bullet.
def max_stable_lr(H):
    if H.ndim != 2 or H.shape[0] != H.shape[1] or not torch.allclose(H, H.T):
        raise ValueError("H must be a square, symmetric matrix")
    lam_max = torch.linalg.eigvalsh(H)[-1].item()
    if lam_max <= 0:
        raise ValueError("no learning rate is stable")
    return 2.0 / lam_max
