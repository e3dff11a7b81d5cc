# Canonical mistake: passes the gradient at z == 0 too (z >= 0), unlike PyTorch's convention.
def relu_backward(grad_out, z):
    return grad_out * (z >= 0).to(grad_out.dtype)
