# Alternative style: PyTorch's own torch.fake_quantize_per_tensor_affine for the values, the mask computed beside it.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        qmax = 2 ** bits - 1
        q = torch.round(x / scale) + zero_point
        ctx.save_for_backward(torch.logical_and(q >= 0, q <= qmax))
        return torch.fake_quantize_per_tensor_affine(x, scale, zero_point, 0, qmax)

    @staticmethod
    def backward(ctx, grad_out):
        inside, = ctx.saved_tensors
        return torch.where(inside, grad_out, 0.0), None, None, None
