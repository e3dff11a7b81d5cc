# Canonical mistake: multiplies the Hessian by x instead of by v.
def hvp(f, x, v):
    xg = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(xg), xg, create_graph=True)
    (hv,) = torch.autograd.grad((g * x).sum(), xg)
    return hv.detach()
