# fails: test_FakeQuantSTE_hidden
# Canonical mistake: round(x / scale + zero_point): with an odd zero point, exact halves round the other way.
# Hint: Reread the statement's last paragraph: add `zero_point` after rounding.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        q = torch.round(x / scale + zero_point)
        ctx.save_for_backward((q >= 0) & (q <= 2 ** bits - 1))
        return (q.clamp(0, 2 ** bits - 1) - zero_point) * scale

    @staticmethod
    def backward(ctx, grad_out):
        inside, = ctx.saved_tensors
        return grad_out * inside.to(grad_out.dtype), None, None, None
