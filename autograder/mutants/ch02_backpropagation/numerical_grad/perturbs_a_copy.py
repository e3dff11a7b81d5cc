# fails: test_numerical_grad_hidden
# Canonical mistake: x.reshape(-1) copies a non-contiguous x, so the perturbation never reaches f (gradient 0).
# Hint: Reread the statement: `x` may be contiguous or not, and `f` must see each perturbed entry.
def numerical_grad(f, x, eps=1e-5):
    base = x.detach().clone()
    flat = base.reshape(-1)
    grad = torch.empty(flat.shape, dtype=x.dtype)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + eps
        fp = float(f(base))
        flat[i] = old - eps
        fm = float(f(base))
        flat[i] = old
        grad[i] = (fp - fm) / (2 * eps)
    return grad.reshape(x.shape)
