# Canonical mistake: q < 2**bits - 1 in the mask: the top level, which is in range, loses its gradient.
# Hint: Reread the backward bullet: both ends of the range are included.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        q = torch.round(x / scale) + zero_point
        ctx.save_for_backward((q >= 0) & (q < 2 ** bits - 1))
        return (q.clamp(0, 2 ** bits - 1) - zero_point) * scale

    @staticmethod
    def backward(ctx, grad_out):
        inside, = ctx.saved_tensors
        return grad_out * inside.to(grad_out.dtype), None, None, None
