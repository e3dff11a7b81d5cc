# Alternative style: torch.where picks grad_out where z > 0 and a zero elsewhere.
def relu_backward(grad_out, z):
    return torch.where(z > 0, grad_out, torch.zeros_like(grad_out))
