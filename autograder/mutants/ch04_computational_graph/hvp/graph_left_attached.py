# Canonical mistake: uses x itself (x.requires_grad_()) and returns a result that still carries a graph.
# Hint: Reread the first and last bullets of the statement: `x` itself must not change, and the result carries no
# graph.
def hvp(f, x, v):
    x.requires_grad_()
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad((g * v).sum(), x, create_graph=True)
    return hv
