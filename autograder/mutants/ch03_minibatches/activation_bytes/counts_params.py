# Canonical mistake: ignores `params`: the weights are counted as activations.
# Hint: Reread the second bullet of the statement: the storages of the tensors in `params`.
def activation_bytes(fn, params=()):
    sizes = {}

    def pack(t):
        sizes[t.untyped_storage()._cdata] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    return sum(sizes.values())
