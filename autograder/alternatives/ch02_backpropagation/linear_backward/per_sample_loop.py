# Alternative style: a Python loop over the samples, summing one outer product per sample for grad_W.
def linear_backward(grad_out, x, W):
    grad_x = torch.stack([W.T @ grad_out[n] for n in range(x.shape[0])])
    grad_W = torch.zeros_like(W)
    grad_b = torch.zeros(W.shape[0], dtype=W.dtype)
    for n in range(x.shape[0]):
        grad_W += torch.outer(grad_out[n], x[n])
        grad_b += grad_out[n]
    return grad_x, grad_W, grad_b
