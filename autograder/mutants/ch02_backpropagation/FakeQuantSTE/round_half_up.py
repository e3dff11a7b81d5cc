# fails: test_FakeQuantSTE_hidden
# Canonical mistake: rounds halves up with floor(x / scale + 0.5) instead of to even like torch.round.
# Hint: Reread the statement's last paragraph: how `torch.round` rounds halves.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        q = torch.floor(x / scale + 0.5) + zero_point
        ctx.save_for_backward((q >= 0) & (q <= 2 ** bits - 1))
        return (q.clamp(0, 2 ** bits - 1) - zero_point) * scale

    @staticmethod
    def backward(ctx, grad_out):
        inside, = ctx.saved_tensors
        return grad_out * inside.to(grad_out.dtype), None, None, None
