# Canonical mistake: each example's share of the batch-mean loss, d(mean loss)/d(params) restricted to one
# example: every row is 1/N of the per-example gradient.
# Hint: Reread which loss row i is the gradient of.
def per_sample_grads(model, loss_fn, x, y):
    params = {name: p.detach() for name, p in model.named_parameters()}

    def loss_of_one(params, xi, yi):
        return loss_fn(functional_call(model, params, (xi[None],)), yi[None]) / len(x)

    return vmap(grad(loss_of_one), in_dims=(None, 0, 0))(params, x, y)
