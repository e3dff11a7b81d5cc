# Correct in another style: eigh, a tensor division that gives inf for H = 0 by itself, .item() at the end.
def max_stable_lr(H):
    if len(H.shape) != 2 or H.size(0) != H.size(1):
        raise ValueError("H must be a square matrix")
    if not torch.allclose(H, H.transpose(0, 1)):
        raise ValueError("H must be symmetric")
    eigenvalues = torch.linalg.eigh(H).eigenvalues.double()
    if (eigenvalues < 0).any():
        raise ValueError("H has a negative eigenvalue: no learning rate is stable")
    return (2.0 / eigenvalues.max()).item()
