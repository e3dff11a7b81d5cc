# Canonical mistake: reads curvature off the diagonal of H, which is not its spectrum.
# Hint: Reread the statement's second bullet: which function gives the eigenvalues.
def max_stable_lr(H):
    if not torch.allclose(H, H.T):
        raise ValueError("H must be symmetric")
    top = H.diagonal().max().item()
    if top <= 0:
        raise ValueError("no stable learning rate")
    return 2.0 / top
