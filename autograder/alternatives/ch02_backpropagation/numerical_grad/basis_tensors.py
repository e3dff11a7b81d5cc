# Alternative style: out-of-place perturbations x +/- eps * e_i with a one-hot basis tensor; differences as tensors.
def numerical_grad(f, x, eps=1e-5):
    flat_grad = []
    for i in range(x.numel()):
        e = torch.zeros(x.numel(), dtype=x.dtype)
        e[i] = eps
        e = e.reshape(x.shape)
        diff = torch.as_tensor(f(x + e), dtype=torch.float64) - torch.as_tensor(f(x - e), dtype=torch.float64)
        flat_grad.append(diff.reshape(()) / (2 * eps))
    return torch.stack(flat_grad).to(x.dtype).reshape(x.shape)
