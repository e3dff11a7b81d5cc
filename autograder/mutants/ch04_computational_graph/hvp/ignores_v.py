# Canonical mistake: differentiates g.sum() instead of (g * v).sum(): returns H·1, the Hessian's row sums.
# Hint: Reread the statement's second bullet: what is differentiated the second time.
def hvp(f, x, v):
    xg = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(xg), xg, create_graph=True)
    (hv,) = torch.autograd.grad(g.sum(), xg)
    return hv.detach()
