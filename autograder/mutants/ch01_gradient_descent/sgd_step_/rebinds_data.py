# fails: test_sgd_step__hidden
# Canonical mistake: `p.data = p.data - ...` gives the parameter new memory instead of updating it in place; any view
# of the old memory (a tied weight, a buffer an optimizer holds) keeps the old values.
# Hint: Reread the first bullet of the statement: the same tensor, in the same memory.
def sgd_step_(params, lr, weight_decay=0.0):
    for p in params:
        if p.grad is None:
            continue
        p.data = p.data - lr * (p.grad + weight_decay * p.data)
