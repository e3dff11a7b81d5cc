# Canonical mistake: `p = p - ...` rebinds the loop variable; the model's parameters never change.
# Hint: Reread the first bullet of the statement: what must change, and where does `p = ...` leave the model's
# parameter?
def sgd_step_(params, lr, weight_decay=0.0):
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            p = p - lr * (p.grad + weight_decay * p)
