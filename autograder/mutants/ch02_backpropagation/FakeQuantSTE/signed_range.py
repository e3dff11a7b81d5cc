# Canonical mistake: the signed range [-2^(k-1), 2^(k-1) - 1] where the zero point expects [0, 2^k - 1].
# Hint: Reread the section's formula for q: the range it is clamped to.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        qmin, qmax = -2 ** (bits - 1), 2 ** (bits - 1) - 1
        q = torch.round(x / scale) + zero_point
        ctx.save_for_backward((q >= qmin) & (q <= qmax))
        return (q.clamp(qmin, qmax) - zero_point) * scale

    @staticmethod
    def backward(ctx, grad_out):
        inside, = ctx.saved_tensors
        return grad_out * inside.to(grad_out.dtype), None, None, None
