# fails: test_relu_backward_hidden
# Canonical mistake: a tolerance where the convention is exact, so a tiny positive z (1e-30) gets no gradient.
# Hint: Reread the statement's convention: the derivative is 0 at exactly `z == 0`, and only there.
def relu_backward(grad_out, z):
    return grad_out * (z.abs() > 1e-12).to(grad_out.dtype) * (z > 0).to(grad_out.dtype)
