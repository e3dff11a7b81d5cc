# Canonical mistake: grad_W = x^T G, shaped [in, out] -- the transpose of W's shape.
# Hint: Reread the statement: `grad_W` is shaped like `W`, [out, in].
def linear_backward(grad_out, x, W):
    return grad_out @ W, x.T @ grad_out, grad_out.sum(dim=0)
