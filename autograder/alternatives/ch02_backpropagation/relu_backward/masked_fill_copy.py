# Alternative style: an in-place masked_fill_ on a copy of grad_out (the caller's tensor stays as it was).
def relu_backward(grad_out, z):
    grad_z = grad_out.clone()
    grad_z.masked_fill_(z <= 0, 0.0)
    return grad_z
