# Correct in another style: torch.no_grad() as a decorator, the steps computed first, then copied in with copy_.
@torch.no_grad()
def sgd_step_(params, lr, weight_decay=0.0):
    with_grad = [p for p in params if p.grad is not None]
    new_values = [p - lr * (p.grad + weight_decay * p) for p in with_grad]
    for p, value in zip(with_grad, new_values):
        p.copy_(value)
