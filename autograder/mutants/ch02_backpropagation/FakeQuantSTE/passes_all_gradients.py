# Canonical mistake: the forward clamps, but backward passes the gradient through everywhere, clamped inputs too.
# Hint: Reread the backward bullet: the gradient is 0 where the value was clamped.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        q = (torch.round(x / scale) + zero_point).clamp(0, 2 ** bits - 1)
        return (q - zero_point) * scale

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None, None, None
