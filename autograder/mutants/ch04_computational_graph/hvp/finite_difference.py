# Canonical mistake: a central finite difference of the gradient, (g(x + h v) - g(x - h v)) / 2h: close, not exact.
# Hint: Reread the statement: the product must be exact up to rounding, as autograd gives it.
def hvp(f, x, v):
    def grad_at(point):
        point = point.detach().requires_grad_()
        return torch.autograd.grad(f(point), point)[0]
    h = 1e-5 if x.dtype == torch.float64 else 1e-2
    return ((grad_at(x + h * v) - grad_at(x - h * v)) / (2 * h)).detach()
