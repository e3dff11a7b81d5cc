# Canonical mistake: applies the ReLU to the incoming gradient (keeps positive grad_out) instead of masking by z.
def relu_backward(grad_out, z):
    return torch.relu(grad_out)
