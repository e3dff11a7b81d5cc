# Alternative style: for "keep", one backward of the summed losses (the same sum of gradients); the last batch alone
# otherwise, since clearing before it wipes the earlier ones.
def grads_after(model, batches, zero):
    if zero not in ["keep", "zeros", "none"]:
        raise ValueError(zero)
    if not batches:
        pass
    elif zero == "keep":
        sum(F.cross_entropy(model(x), y) for x, y in batches).backward()
    else:
        for x, y in batches[:-1]:
            model.zero_grad(set_to_none=(zero == "none"))
            F.cross_entropy(model(x), y).backward()
        model.zero_grad(set_to_none=(zero == "none"))
        x, y = batches[-1]
        F.cross_entropy(model(x), y).backward()
    return {n: (None if p.grad is None else p.grad.detach().clone()) for n, p in model.named_parameters()}
