# Alternative style: the step function torch.heaviside with value 0 at z == 0, times grad_out.
def relu_backward(grad_out, z):
    return grad_out * torch.heaviside(z, torch.zeros((), dtype=z.dtype))
