# Canonical mistake: torch.zeros(x.shape) uses the default dtype, float32: the float64 differences are rounded.
# Hint: Reread the statement: the returned tensor has `x`'s shape and dtype.
def numerical_grad(f, x, eps=1e-5):
    base = x.detach().clone(memory_format=torch.contiguous_format)
    flat = base.view(-1)
    grad = torch.zeros(x.shape)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + eps
        fp = float(f(base))
        flat[i] = old - eps
        fm = float(f(base))
        flat[i] = old
        grad.view(-1)[i] = (fp - fm) / (2 * eps)
    return grad
