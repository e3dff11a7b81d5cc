# Alternative style: torch.mm / torch.matmul / torch.sum called as functions, grad_W as (x^T G)^T.
def linear_backward(grad_out, x, W):
    grad_x = torch.mm(grad_out, W)
    grad_W = torch.matmul(x.t(), grad_out).t()
    grad_b = torch.sum(grad_out, 0)
    return grad_x, grad_W, grad_b
