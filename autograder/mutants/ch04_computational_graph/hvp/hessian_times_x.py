# Canonical mistake: multiplies the Hessian by x instead of by v.
# Hint: Reread the statement's second bullet: what `g` is multiplied by before the second differentiation.
def hvp(f, x, v):
    xg = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(xg), xg, create_graph=True)
    (hv,) = torch.autograd.grad((g * x).sum(), xg)
    return hv.detach()
