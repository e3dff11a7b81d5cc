# Alternative style: the explicit Hessian (fine for small x), flattened to a matrix and reshaped back like x.
def hvp(f, x, v):
    n = x.numel()
    H = torch.autograd.functional.hessian(f, x.detach()).reshape(n, n)
    return (H @ v.reshape(n)).reshape(x.shape)
