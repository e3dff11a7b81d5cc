# A loop of single-example gradients with torch.autograd.grad (no .grad written).
def per_sample_grads(model, loss_fn, x, y):
    names = [name for name, _ in model.named_parameters()]
    params = [p for _, p in model.named_parameters()]
    rows = [torch.autograd.grad(loss_fn(model(x[i:i + 1]), y[i:i + 1]), params) for i in range(len(x))]
    return {name: torch.stack([r[k] for r in rows]).detach() for k, name in enumerate(names)}
