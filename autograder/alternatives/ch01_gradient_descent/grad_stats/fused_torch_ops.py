# Correct in another style: fused torch ops (std_mean, aminmax, count_nonzero) in the tensor's own dtype.
def grad_stats(t):
    std, mean = torch.std_mean(t.detach())
    low, high = torch.aminmax(t.detach())
    nonzero = torch.count_nonzero(t).item() / t.numel()
    return dict(mean=mean.item(), std=std.item(), min=low.item(), max=high.item(), nonzero=nonzero)
