# Alternative style: forward-over-reverse with torch.func, jvp of the gradient function in the direction v.
def hvp(f, x, v):
    _, product = torch.func.jvp(torch.func.grad(f), (x.detach(),), (v,))
    return product.detach()
