# fails: test_numerical_grad_hidden
# Canonical mistake: calls f(...).item(), which fails when f returns a Python float (the statement allows both).
# Hint: Reread the statement: what `f` may return.
def numerical_grad(f, x, eps=1e-5):
    base = x.detach().clone(memory_format=torch.contiguous_format)
    flat, grad = base.view(-1), torch.empty_like(base)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + eps
        fp = f(base).item()
        flat[i] = old - eps
        fm = f(base).item()
        flat[i] = old
        grad.view(-1)[i] = (fp - fm) / (2 * eps)
    return grad
