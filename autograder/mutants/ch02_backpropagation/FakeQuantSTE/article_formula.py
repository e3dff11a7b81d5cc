# Canonical mistake: the article's round(x / scale + zero_point) * scale: off by zero_point * scale, never clamped.
# Hint: Reread the section's formula for q and out: where the zero point is added, and the clamp.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        return torch.round(x / scale + zero_point) * scale

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None, None, None
