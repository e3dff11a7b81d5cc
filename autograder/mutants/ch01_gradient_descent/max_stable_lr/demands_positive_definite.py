# fails: test_max_stable_lr_hidden
# Canonical mistake: refuses any H with a non-positive eigenvalue; the limit only needs lambda_max > 0.
def max_stable_lr(H):
    if not torch.allclose(H, H.T):
        raise ValueError("H must be symmetric")
    eigenvalues = torch.linalg.eigvalsh(H)
    if eigenvalues[0].item() <= 0:
        raise ValueError("H must be positive definite")
    return 2.0 / eigenvalues[-1].item()
