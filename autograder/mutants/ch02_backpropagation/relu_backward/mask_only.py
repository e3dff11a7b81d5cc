# Canonical mistake: returns the local derivative (the mask) and forgets to multiply by grad_out.
def relu_backward(grad_out, z):
    return (z > 0).to(grad_out.dtype)
