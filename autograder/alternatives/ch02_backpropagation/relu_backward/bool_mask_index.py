# Alternative style: boolean indexing into a zero tensor.
def relu_backward(grad_out, z):
    out = torch.zeros_like(grad_out)
    keep = z > 0
    out[keep] = grad_out[keep]
    return out
