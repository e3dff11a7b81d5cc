# Canonical mistake: an in-place update outside torch.no_grad() (autograd refuses to modify a leaf).
def sgd_step_(params, lr, weight_decay=0.0):
    for p in params:
        if p.grad is None:
            continue
        p -= lr * (p.grad + weight_decay * p)
