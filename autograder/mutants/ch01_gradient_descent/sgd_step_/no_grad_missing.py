# Canonical mistake: an in-place update outside torch.no_grad() (autograd refuses to modify a leaf).
# Hint: Reread the first bullet of the statement: under what context must the update run?
def sgd_step_(params, lr, weight_decay=0.0):
    for p in params:
        if p.grad is None:
            continue
        p -= lr * (p.grad + weight_decay * p)
