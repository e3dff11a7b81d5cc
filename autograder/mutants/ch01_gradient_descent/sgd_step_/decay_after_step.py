# Canonical mistake: shrinks the weights after the gradient step, (p - lr*g) * (1 - lr*wd), an extra lr^2*wd*g.
# Hint: Reread the update rule above the exercise: where weight decay sits inside the one step.
def sgd_step_(params, lr, weight_decay=0.0):
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            p.sub_(lr * p.grad)
            p.mul_(1 - lr * weight_decay)
