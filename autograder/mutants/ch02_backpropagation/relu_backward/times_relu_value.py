# Canonical mistake: multiplies by relu(z) (the forward value) instead of its derivative.
def relu_backward(grad_out, z):
    return grad_out * torch.relu(z)
