# torch.func.jacrev instead of grad, parameters passed as a tuple, and the batch dimension added with unsqueeze.
from torch.func import jacrev

def per_sample_grads(model, loss_fn, x, y):
    names = tuple(name for name, _ in model.named_parameters())
    values = tuple(p.detach() for _, p in model.named_parameters())

    def loss_of_one(values, xi, yi):
        out = functional_call(model, dict(zip(names, values)), (xi.unsqueeze(0),))
        return loss_fn(out, yi.unsqueeze(0))

    grads = vmap(jacrev(loss_of_one), in_dims=(None, 0, 0))(values, x, y)
    return dict(zip(names, grads))
