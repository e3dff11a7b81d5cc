# Alternative style: saves x and keeps scale, zero point and range on ctx; the mask is recomputed in backward.
class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, bits):
        ctx.save_for_backward(x)
        ctx.scale, ctx.zero_point, ctx.qmax = scale, zero_point, 2 ** bits - 1
        q = torch.clamp(torch.round(x / scale) + zero_point, min=0, max=ctx.qmax)
        return (q - zero_point) * scale

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        q = torch.round(x / ctx.scale) + ctx.zero_point
        keep = (q >= 0) & (q <= ctx.qmax)
        return torch.where(keep, grad_out, torch.zeros_like(grad_out)), None, None, None
