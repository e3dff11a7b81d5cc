# fails: test_grads_after_hidden
# Canonical mistake: returns the .grad tensors themselves; the next zero_grad or backward changes the "result".
# Hint: Reread the statement's last two sentences: a copy of each `.grad`, and why.
def grads_after(model, batches, zero):
    if zero not in ("keep", "zeros", "none"):
        raise ValueError(zero)
    for x, y in batches:
        if zero != "keep":
            model.zero_grad(set_to_none=(zero == "none"))
        F.cross_entropy(model(x), y).backward()
    return {n: p.grad for n, p in model.named_parameters()}
