# Canonical mistake: the gradient of the whole batch's loss, copied into every row.
# Hint: Reread which loss row i is the gradient of.
def per_sample_grads(model, loss_fn, x, y):
    params = list(model.parameters())
    grads = torch.autograd.grad(loss_fn(model(x), y), params)
    return {name: g.detach()[None].expand(len(x), *g.shape).clone()
            for (name, _), g in zip(model.named_parameters(), grads)}
