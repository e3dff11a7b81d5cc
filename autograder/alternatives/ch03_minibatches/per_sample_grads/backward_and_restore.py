# loss.backward() per example, reading .grad and resetting it to None each time (so nothing is left behind).
def per_sample_grads(model, loss_fn, x, y):
    out = {name: torch.empty((len(x),) + tuple(p.shape), dtype=p.dtype) for name, p in model.named_parameters()}
    for i in range(len(x)):
        model.zero_grad(set_to_none=True)
        loss_fn(model(x[i:i + 1]), y[i:i + 1]).backward()
        for name, p in model.named_parameters():
            out[name][i] = p.grad.detach()
    model.zero_grad(set_to_none=True)
    return out
