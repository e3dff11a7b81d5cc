# Canonical mistake: clears the gradients after backward instead of before, wiping what was just computed.
# Hint: Reread the statement: the clearing happens before or after each backward?
def grads_after(model, batches, zero):
    if zero not in ("keep", "zeros", "none"):
        raise ValueError(zero)
    for x, y in batches:
        F.cross_entropy(model(x), y).backward()
        if zero != "keep":
            model.zero_grad(set_to_none=(zero == "none"))
    return {n: None if p.grad is None else p.grad.detach().clone() for n, p in model.named_parameters()}
