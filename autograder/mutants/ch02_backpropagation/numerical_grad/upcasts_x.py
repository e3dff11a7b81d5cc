# fails: test_numerical_grad_hidden
# Canonical mistake: perturbs a float64 copy of a float32 x, so f never sees x's dtype (a float32 check looks too
# good).
# Hint: Reread the statement's last paragraph: perturb a copy in `x`'s dtype, not float64.
def numerical_grad(f, x, eps=1e-5):
    base = x.detach().double().contiguous().clone()
    flat, grad = base.view(-1), torch.empty_like(base)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + eps
        fp = float(f(base))
        flat[i] = old - eps
        fm = float(f(base))
        flat[i] = old
        grad.view(-1)[i] = (fp - fm) / (2 * eps)
    return grad.to(x.dtype)
