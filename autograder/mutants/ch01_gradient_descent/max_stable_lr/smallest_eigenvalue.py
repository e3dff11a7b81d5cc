# Canonical mistake: eigvalsh sorts ascending, and [0] is the smallest eigenvalue, not the largest.
# Hint: Reread the statement's second bullet: the order in which `torch.linalg.eigvalsh` returns the eigenvalues.
def max_stable_lr(H):
    if not torch.allclose(H, H.T):
        raise ValueError("H must be symmetric")
    lam = torch.linalg.eigvalsh(H)[0].item()
    if lam <= 0:
        raise ValueError("no stable learning rate")
    return 2.0 / lam
