# fails: test_linear_backward_hidden
# Canonical mistake: asks torch.func.vjp (autograd under another name) for the gradients.
# Hint: Reread the paragraph before the exercises: which tools the backward pass may not use, `torch.func` included.
def linear_backward(grad_out, x, W):
    b = torch.zeros(W.shape[0], dtype=W.dtype)
    _, vjp = torch.func.vjp(F.linear, x, W, b)
    return vjp(grad_out)
