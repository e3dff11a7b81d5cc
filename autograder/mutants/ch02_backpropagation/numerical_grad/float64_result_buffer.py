# fails: test_numerical_grad_hidden
# Canonical mistake: the result tensor is always float64 (the old "x is float64"), not x's dtype.
# Hint: Reread the statement: the returned tensor has `x`'s dtype, float32 included.
def numerical_grad(f, x, eps=1e-5):
    base = x.detach().clone(memory_format=torch.contiguous_format)
    flat = base.view(-1)
    grad = torch.zeros(x.shape, dtype=torch.float64)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + eps
        fp = float(f(base))
        flat[i] = old - eps
        fm = float(f(base))
        flat[i] = old
        grad.view(-1)[i] = (fp - fm) / (2 * eps)
    return grad
