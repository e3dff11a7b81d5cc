# Alternative style: the second backward seeded with grad_outputs=v (a vector-Jacobian product of the gradient).
def hvp(f, x, v):
    point = x.detach().clone().requires_grad_(True)
    gradient = torch.autograd.grad(f(point), [point], create_graph=True)[0]
    return torch.autograd.grad([gradient], [point], grad_outputs=[v])[0].detach()
