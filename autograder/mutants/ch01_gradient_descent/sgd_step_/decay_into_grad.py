# fails: test_sgd_step__hidden
# Canonical mistake: adds the weight decay into .grad in place; the weights come out right, but .grad no longer holds
# the gradient (torch.optim.SGD leaves it alone).
# Hint: Reread the bullet of the statement about what happens to `.grad`.
def sgd_step_(params, lr, weight_decay=0.0):
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            p.grad.add_(p, alpha=weight_decay)
            p.sub_(lr * p.grad)
