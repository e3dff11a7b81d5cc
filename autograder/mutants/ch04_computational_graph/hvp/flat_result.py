# fails: test_hvp_hidden
# Plausible mistake: the explicit Hessian as an n x n matrix times the flattened v, never reshaped back like x.
def hvp(f, x, v):
    n = x.numel()
    H = torch.autograd.functional.hessian(f, x.detach()).reshape(n, n)
    return H @ v.reshape(n)
