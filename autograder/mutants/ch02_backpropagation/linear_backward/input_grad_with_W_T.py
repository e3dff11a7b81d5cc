# Canonical mistake: grad_x = G W^T, as if the forward were x @ W (only runs when W is square, then wrong).
# Hint: Reread the Linear row of the backward table and the check below it: a gradient has the shape of what it is the
# gradient of.
def linear_backward(grad_out, x, W):
    return grad_out @ W.T, grad_out.T @ x, grad_out.sum(dim=0)
