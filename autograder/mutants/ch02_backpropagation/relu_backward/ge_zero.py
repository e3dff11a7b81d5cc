# Canonical mistake: passes the gradient at z == 0 too (z >= 0), unlike PyTorch's convention.
# Hint: Reread the statement's convention for the derivative at exactly `z == 0`.
def relu_backward(grad_out, z):
    return grad_out * (z >= 0).to(grad_out.dtype)
