# Canonical mistake: divides the central difference by eps instead of 2 * eps (twice the gradient).
# Hint: Reread the central difference formula above the exercise: its denominator.
def numerical_grad(f, x, eps=1e-5):
    base = x.detach().clone(memory_format=torch.contiguous_format)
    flat, grad = base.view(-1), torch.empty_like(base)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + eps
        fp = float(f(base))
        flat[i] = old - eps
        fm = float(f(base))
        flat[i] = old
        grad.view(-1)[i] = (fp - fm) / eps
    return grad
