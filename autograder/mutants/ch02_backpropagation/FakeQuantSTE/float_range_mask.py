# Canonical mistake: masks on x itself against the representable range, so inputs within half a step outside it lose
# their gradient.
# Hint: Reread the backward bullet: the range is checked on `round(x / scale) + zero_point`, not on `x`.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        lo, hi = (0 - zero_point) * scale, (2 ** bits - 1 - zero_point) * scale
        ctx.save_for_backward((x >= lo) & (x <= hi))
        q = (torch.round(x / scale) + zero_point).clamp(0, 2 ** bits - 1)
        return (q - zero_point) * scale

    @staticmethod
    def backward(ctx, grad_out):
        inside, = ctx.saved_tensors
        return grad_out * inside.to(grad_out.dtype), None, None, None
