# fails: test_activation_bytes_hidden
# Canonical mistake: pack records the size but returns nothing: a backward pass inside fn finds no saved tensor.
# Hint: Reread what pack must return.
import torch


def activation_bytes(fn, params=()):
    skip = {p.untyped_storage() for p in params}
    sizes = {}

    def pack(t):
        s = t.untyped_storage()
        if s not in skip:
            sizes[s] = s.nbytes()

    def unpack(packed):
        return packed

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        fn()
    return sum(sizes.values())
