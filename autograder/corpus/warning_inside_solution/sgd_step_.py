import warnings

def sgd_step_(params, lr, weight_decay=0.0):
    warnings.warn("sgd_step_ is slow")
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.sub_(lr * (p.grad + weight_decay * p))
