# Canonical mistake: weight decay applied without the learning rate (p -= lr*g + wd*p).
# Hint: Reread the update rule above the exercise and the Predict question: what multiplies the weight decay term?
def sgd_step_(params, lr, weight_decay=0.0):
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            p.sub_(lr * p.grad + weight_decay * p)
