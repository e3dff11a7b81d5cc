# Alternative style: clamps round(x / scale) to [-zero_point, 2^k - 1 - zero_point] (integer arithmetic, the same
# numbers), and saves the mask as a float tensor.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        r = x.div(scale).round()
        lo, hi = -zero_point, (1 << bits) - 1 - zero_point
        ctx.save_for_backward(((r >= lo) & (r <= hi)).to(x.dtype))
        return torch.maximum(torch.minimum(r, torch.full_like(r, hi)), torch.full_like(r, lo)) * scale

    @staticmethod
    def backward(ctx, grad_out):
        mask, = ctx.saved_tensors
        return mask * grad_out, None, None, None
