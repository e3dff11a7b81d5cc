"""Synthetic data, generated on the spot so every chapter runs offline and the same everywhere."""
import torch


def teacher_classification(n, dim, classes, seed, noise=0.0):
    """`n` Gaussian inputs labelled by a random linear teacher: returns (x [n, dim] float32, y [n] int64).

    The labels are learnable but not trivial; `noise` flips that fraction of labels at random.
    """
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, dim, generator=g)
    teacher = torch.randn(dim, classes, generator=g)
    y = (x @ teacher).argmax(dim=1)
    if noise > 0:
        flip = torch.rand(n, generator=g) < noise
        y[flip] = torch.randint(0, classes, (int(flip.sum()),), generator=g)
    return x, y


def symmetric_matrix(eigenvalues, seed, dtype=torch.float64):
    """A symmetric matrix Q diag(eigenvalues) Q^T with a random orthogonal Q: positive-definite when every
    eigenvalue is positive, indefinite (a saddle's Hessian) when some are negative.

    Its eigenvalues are exactly the ones asked for, while its diagonal is not: a Hessian whose stability
    limit cannot be read off the diagonal.
    """
    eig = torch.as_tensor(eigenvalues, dtype=dtype)
    g = torch.Generator().manual_seed(seed)
    q, _ = torch.linalg.qr(torch.randn(len(eig), len(eig), generator=g, dtype=dtype))
    h = q @ torch.diag(eig) @ q.T
    return (h + h.T) / 2
