# Canonical mistake: passes f the flattened copy instead of a tensor of x's shape.
# Hint: Reread the statement: `f` takes a tensor of `x`'s shape and dtype.
def numerical_grad(f, x, eps=1e-5):
    flat = x.detach().reshape(-1).clone()
    grad = torch.empty_like(flat)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + eps
        fp = float(f(flat))
        flat[i] = old - eps
        fm = float(f(flat))
        flat[i] = old
        grad[i] = (fp - fm) / (2 * eps)
    return grad.reshape(x.shape)
