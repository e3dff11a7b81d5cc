# Canonical mistake: perturbs x itself and never puts the entry back, so x changes and later entries are off.
# Hint: Reread the statement's last paragraph: do not change `x`.
def numerical_grad(f, x, eps=1e-5):
    flat = x.view(-1)
    grad = torch.empty_like(flat)
    with torch.no_grad():
        for i in range(flat.numel()):
            flat[i] += eps
            fp = float(f(x))
            flat[i] -= 2 * eps
            fm = float(f(x))
            grad[i] = (fp - fm) / (2 * eps)
    return grad.view(x.shape)
