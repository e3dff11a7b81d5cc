# Alternative style: collects Python floats in a list and builds the result with torch.tensor(..., dtype=x.dtype).
def numerical_grad(f, x, eps=1e-5):
    work = x.contiguous().clone()
    flat = work.view(-1)
    values = []
    for i in range(flat.numel()):
        flat[i] += eps
        f_plus = f(work)
        f_plus = f_plus.item() if torch.is_tensor(f_plus) else f_plus
        flat[i] -= 2 * eps
        f_minus = f(work)
        f_minus = f_minus.item() if torch.is_tensor(f_minus) else f_minus
        flat[i] += eps
        values.append((f_plus - f_minus) / (2 * eps))
    return torch.tensor(values, dtype=x.dtype).reshape(x.shape)
