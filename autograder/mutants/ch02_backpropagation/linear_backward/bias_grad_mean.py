# Canonical mistake: the bias gradient averages over the batch instead of summing (the mean is already in G).
# Hint: Reread the Linear row of the backward table: the rule for ∂b, and where the loss's mean already is.
def linear_backward(grad_out, x, W):
    return grad_out @ W, grad_out.T @ x, grad_out.mean(dim=0)
