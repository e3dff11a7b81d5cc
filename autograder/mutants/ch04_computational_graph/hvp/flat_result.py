# fails: test_hvp_hidden
# Canonical mistake: the explicit Hessian as an n x n matrix times the flattened v, never reshaped back like x.
# Hint: Reread the statement's first sentence: a tensor of exactly `x`'s shape.
def hvp(f, x, v):
    n = x.numel()
    H = torch.autograd.functional.hessian(f, x.detach()).reshape(n, n)
    return H @ v.reshape(n)
