# Canonical mistake: returns the local derivative (the mask) and forgets to multiply by grad_out.
# Hint: Reread the ReLU row of the backward table: ∂z is G times the indicator.
def relu_backward(grad_out, z):
    return (z > 0).to(grad_out.dtype)
