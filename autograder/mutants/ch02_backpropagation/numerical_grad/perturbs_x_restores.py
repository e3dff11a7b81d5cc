# fails: test_numerical_grad_hidden
# Canonical mistake: perturbs x itself and puts each entry back: x ends as it was, but an f that reads x sees the
# nudge.
# Hint: Reread the statement's last paragraph: perturb a copy, never `x` itself.
def numerical_grad(f, x, eps=1e-5):
    grad = torch.zeros_like(x)
    flat_index = list(torch.cartesian_prod(*[torch.arange(n) for n in x.shape]).reshape(-1, x.dim()).tolist())
    with torch.no_grad():
        for idx in map(tuple, flat_index):
            old = x[idx].item()
            x[idx] = old + eps
            fp = float(f(x))
            x[idx] = old - eps
            fm = float(f(x))
            x[idx] = old
            grad[idx] = (fp - fm) / (2 * eps)
    return grad
