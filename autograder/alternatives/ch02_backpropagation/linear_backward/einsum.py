# Alternative style: torch.einsum with index names instead of matrix products and transposes.
def linear_backward(grad_out, x, W):
    grad_x = torch.einsum("no,oi->ni", grad_out, W)
    grad_W = torch.einsum("no,ni->oi", grad_out, x)
    grad_b = torch.einsum("no->o", grad_out)
    return (grad_x, grad_W, grad_b)
