# Alternative style: torch.autograd.functional.hvp, which does the double backward itself.
def hvp(f, x, v):
    _, product = torch.autograd.functional.hvp(f, x.detach(), v)
    return product
