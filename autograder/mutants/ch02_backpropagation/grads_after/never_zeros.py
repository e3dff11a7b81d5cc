# Canonical mistake: ignores `zero`, so gradients always add up.
# Hint: Reread the bullets of the statement: what each value of `zero` does before each backward.
def grads_after(model, batches, zero):
    if zero not in ("keep", "zeros", "none"):
        raise ValueError(zero)
    for x, y in batches:
        F.cross_entropy(model(x), y).backward()
    return {n: None if p.grad is None else p.grad.detach().clone() for n, p in model.named_parameters()}
