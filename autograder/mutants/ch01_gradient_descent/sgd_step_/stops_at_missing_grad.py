# fails: test_sgd_step__hidden
# Canonical mistake: `break` (or `return`) at the first parameter without a gradient, so the ones after it never move.
# Hint: Reread the bullet of the statement about parameters whose `.grad` is `None`: wherever they stand in the list.
def sgd_step_(params, lr, weight_decay=0.0):
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                break
            p.sub_(lr * (p.grad + weight_decay * p))
