# Canonical mistake: returns the gradient times v elementwise (first derivative only), not H v.
# Hint: Reread the formula above the exercise: H v is the gradient of g(x) · v, a second derivative.
def hvp(f, x, v):
    xg = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(xg), xg)
    return (g * v).detach()
