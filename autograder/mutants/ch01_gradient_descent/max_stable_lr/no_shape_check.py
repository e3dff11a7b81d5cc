# fails: test_max_stable_lr_hidden
# Canonical mistake: torch.allclose(H, H.T) without checking the shape first; for a non-square H it raises
# RuntimeError (sizes do not match), not the ValueError asked for.
# Hint: Reread the first bullet of the statement: what to check first, and what `torch.allclose` does on a non-square
# `H`.
def max_stable_lr(H):
    if not torch.allclose(H, H.T):
        raise ValueError("H must be symmetric")
    eigenvalues = torch.linalg.eigvalsh(H)
    if eigenvalues[0].item() < 0:
        raise ValueError("a negative eigenvalue: no learning rate is stable")
    lam_max = eigenvalues[-1].item()
    return math.inf if lam_max == 0 else 2.0 / lam_max
