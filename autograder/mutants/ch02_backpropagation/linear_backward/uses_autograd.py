# fails: test_linear_backward_hidden
# Canonical mistake: asks autograd for the gradients instead of writing the backward pass.
# Hint: Reread the paragraph before the exercises: which tools the backward pass may not use.
def linear_backward(grad_out, x, W):
    with torch.enable_grad():
        x = x.detach().requires_grad_()
        W = W.detach().requires_grad_()
        b = torch.zeros(W.shape[0], dtype=W.dtype, requires_grad=True)
        out = F.linear(x, W, b)
        return torch.autograd.grad(out, (x, W, b), grad_out)
