# Correct in another style: p * (1 - lr*wd) - lr*g, the same update rearranged, with in-place mul_ and add_.
def sgd_step_(params, lr, weight_decay=0.0):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.mul_(1 - lr * weight_decay).add_(p.grad, alpha=-lr)
