# fails: test_numerical_grad_hidden
# Canonical mistake: torch.as_tensor(f(x)).item() turns a Python-float result into float32, losing 9 digits.
# Hint: Reread the statement's last paragraph: `f`'s values are not rounded to float32 when `x` is float64.
def numerical_grad(f, x, eps=1e-5):
    base = x.detach().clone(memory_format=torch.contiguous_format)
    flat, grad = base.view(-1), torch.empty_like(base)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + eps
        fp = torch.as_tensor(f(base)).item()
        flat[i] = old - eps
        fm = torch.as_tensor(f(base)).item()
        flat[i] = old
        grad.view(-1)[i] = (fp - fm) / (2 * eps)
    return grad
