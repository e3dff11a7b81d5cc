# Canonical mistake: ignores `params`: the weights are counted as activations.
# Hint: Reread which storages the statement says not to count.
def activation_bytes(fn, params=()):
    sizes = {}

    def pack(t):
        sizes[t.untyped_storage()] = t.untyped_storage().nbytes()
        return t.detach()

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    return sum(sizes.values())
