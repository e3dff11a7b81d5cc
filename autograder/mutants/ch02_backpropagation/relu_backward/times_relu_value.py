# Canonical mistake: multiplies by relu(z) (the forward value) instead of its derivative.
# Hint: Reread the ReLU row of the backward table: G is multiplied by the derivative, not by the forward value.
def relu_backward(grad_out, z):
    return grad_out * torch.relu(z)
