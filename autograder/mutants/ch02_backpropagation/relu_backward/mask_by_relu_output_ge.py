# Canonical mistake: masks with relu(z) >= 0, which is true everywhere (the gradient passes unchanged).
# Hint: Reread the ReLU row of the backward table: the indicator is taken on which tensor, with which comparison?
def relu_backward(grad_out, z):
    return grad_out * (torch.relu(z) >= 0).to(grad_out.dtype)
