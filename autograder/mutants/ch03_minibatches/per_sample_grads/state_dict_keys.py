# fails: test_per_sample_grads_hidden
# Canonical mistake: keys the result by the state dict, which holds the buffers too: a buffer gets an entry.
# Hint: Reread which entries the dict has: one per parameter, named as named_parameters() names them.
import torch
from torch.func import functional_call, grad, vmap


def per_sample_grads(model, loss_fn, x, y):
    params = {name: t.detach() for name, t in model.state_dict().items()}

    def f(params, xi, yi):
        return loss_fn(functional_call(model, params, (xi[None],)), yi[None])

    return vmap(grad(f), in_dims=(None, 0, 0))(params, x, y)
