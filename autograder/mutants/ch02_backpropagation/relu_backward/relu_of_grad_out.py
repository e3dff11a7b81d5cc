# Canonical mistake: applies the ReLU to the incoming gradient (keeps positive grad_out) instead of masking by z.
# Hint: Reread the ReLU row of the backward table: the indicator depends on z, not on G.
def relu_backward(grad_out, z):
    return torch.relu(grad_out)
