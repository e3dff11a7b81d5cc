# Canonical mistake: sums the bias gradient with keepdim=True: shaped [1, out] instead of b's [out].
# Hint: Reread the statement: each gradient is shaped like what it is the gradient of, and `grad_b` is [out].
def linear_backward(grad_out, x, W):
    return grad_out @ W, grad_out.T @ x, grad_out.sum(dim=0, keepdim=True)
