# Canonical mistake: pack returns t as it came: an output that its own operation saved (exp, relu, softmax) then
# holds its grad_fn, which holds it, a cycle the garbage collector cannot free; a measured forward pass leaks.
# Hint: Reread what pack must return, and the trap measured just before the exercise.
import torch


def activation_bytes(fn, params=()):
    skip = {p.untyped_storage() for p in params}
    sizes = {}

    def pack(t):
        storage = t.untyped_storage()
        if storage not in skip:
            sizes[storage] = storage.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    return sum(sizes.values())
