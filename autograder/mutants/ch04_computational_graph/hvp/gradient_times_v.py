# Canonical mistake: returns the gradient times v elementwise (first derivative only), not H v.
def hvp(f, x, v):
    xg = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(xg), xg)
    return (g * v).detach()
