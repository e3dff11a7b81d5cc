# Canonical mistake: 2 / max|lambda| (the spectral radius), as if a negative eigenvalue only tightened the limit.
# Hint: Reread the bullets above the exercise on λ < 0, and the statement's third bullet.
def max_stable_lr(H):
    if H.ndim != 2 or H.shape[0] != H.shape[1] or not torch.allclose(H, H.T):
        raise ValueError("H must be a square, symmetric matrix")
    radius = torch.linalg.eigvalsh(H).abs().max().item()
    if radius == 0:
        return math.inf
    return 2.0 / radius
