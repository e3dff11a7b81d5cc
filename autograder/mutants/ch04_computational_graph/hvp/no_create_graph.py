# Canonical mistake: the first grad without create_graph=True, so the gradient has no graph to differentiate.
# Hint: Reread the statement's second bullet and the section's first paragraph on `create_graph=True`.
def hvp(f, x, v):
    xg = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(xg), xg)
    (hv,) = torch.autograd.grad((g * v).sum(), xg)
    return hv.detach()
