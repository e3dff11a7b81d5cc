# Correct in another style: a loop over the eigenvalues (tolist) with the errors raised as they are found.
def max_stable_lr(H):
    if H.dim() != 2:
        raise ValueError(f"H must be a matrix, got {H.dim()} dimensions")
    rows, cols = H.shape
    if rows != cols:
        raise ValueError(f"H must be square, got {rows}x{cols}")
    if not torch.allclose(H, H.mT):
        raise ValueError("H must be symmetric")
    largest = 0.0
    for lam in torch.linalg.eigvalsh(H).tolist():
        if lam < 0:
            raise ValueError(f"eigenvalue {lam} < 0")
        largest = max(largest, lam)
    return float("inf") if largest == 0.0 else 2 / largest
