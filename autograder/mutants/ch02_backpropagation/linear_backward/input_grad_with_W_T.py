# Canonical mistake: grad_x = G W^T, as if the forward were x @ W (only runs when W is square, then wrong).
def linear_backward(grad_out, x, W):
    return grad_out @ W.T, grad_out.T @ x, grad_out.sum(dim=0)
