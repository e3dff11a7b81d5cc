# fails: test_numerical_grad_hidden
# Canonical mistake: a hard-coded step h = 1e-5 instead of the eps argument (right for the default, wrong otherwise).
# Hint: Reread the statement's last sentence of its first paragraph: the step you were given.
def numerical_grad(f, x, eps=1e-5):
    h = 1e-5
    base = x.detach().clone(memory_format=torch.contiguous_format)
    flat, grad = base.view(-1), torch.empty_like(base)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + h
        fp = float(f(base))
        flat[i] = old - h
        fm = float(f(base))
        flat[i] = old
        grad.view(-1)[i] = (fp - fm) / (2 * h)
    return grad
