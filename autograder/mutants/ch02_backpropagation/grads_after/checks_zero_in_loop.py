# fails: test_grads_after_hidden
# Canonical mistake: checks `zero` in an if/elif chain inside the loop, so with no batches a bad value never raises.
# Hint: Reread the statement's second sentence: a bad `zero` raises even when `batches` is empty.
def grads_after(model, batches, zero):
    for x, y in batches:
        if zero == "zeros":
            model.zero_grad(set_to_none=False)
        elif zero == "none":
            model.zero_grad(set_to_none=True)
        elif zero != "keep":
            raise ValueError(zero)
        F.cross_entropy(model(x), y).backward()
    return {n: None if p.grad is None else p.grad.detach().clone() for n, p in model.named_parameters()}
