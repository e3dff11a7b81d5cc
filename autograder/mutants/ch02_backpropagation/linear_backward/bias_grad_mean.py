# Canonical mistake: the bias gradient averages over the batch instead of summing (the mean is already in G).
def linear_backward(grad_out, x, W):
    return grad_out @ W, grad_out.T @ x, grad_out.mean(dim=0)
