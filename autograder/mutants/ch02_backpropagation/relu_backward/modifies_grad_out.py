# fails: test_relu_backward_hidden
# Canonical mistake: zeroes grad_out in place, changing the caller's tensor.
# Hint: Reread the last sentence of the statement, about `grad_out`.
def relu_backward(grad_out, z):
    grad_out[z <= 0] = 0
    return grad_out
