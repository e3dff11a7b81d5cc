# Canonical mistake: sums the bias gradient with keepdim=True: shaped [1, out] instead of b's [out].
def linear_backward(grad_out, x, W):
    return grad_out @ W, grad_out.T @ x, grad_out.sum(dim=0, keepdim=True)
