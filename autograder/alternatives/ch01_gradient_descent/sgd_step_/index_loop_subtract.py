# Correct in another style: an index loop and the in-place -= operator under no_grad; returns None explicitly.
def sgd_step_(params, lr, weight_decay=0.0):
    with torch.no_grad():
        for i in range(len(params)):
            g = params[i].grad
            if g is None:
                continue
            if weight_decay:
                g = g.add(params[i], alpha=weight_decay)
            params[i] -= lr * g
    return None
