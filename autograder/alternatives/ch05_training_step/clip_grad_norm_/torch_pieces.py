# Correct, written differently: torch's own pieces, the total norm from torch.nn.utils.get_total_norm and the clipping
# from torch.nn.utils.clip_grads_with_norm_.
def clip_grad_norm_(params, max_norm):
    from torch.nn.utils import clip_grads_with_norm_, get_total_norm
    params = [p for p in params if p.grad is not None]
    if not params:
        return torch.tensor(0.0)
    total = get_total_norm([p.grad for p in params], error_if_nonfinite=True)
    clip_grads_with_norm_(params, max_norm, total)
    return total
