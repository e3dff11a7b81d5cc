# fails: test_activation_bytes_hidden
# Canonical mistake: identifies storages by data_ptr(), which is 0 for every tensor on the meta device.
# Hint: Reread what the statement says about the meta device and how to tell storages apart there.
def activation_bytes(fn, params=()):
    skip = {p.untyped_storage().data_ptr() for p in params}
    sizes = {}

    def pack(t):
        key = t.untyped_storage().data_ptr()
        if key not in skip:
            sizes[key] = t.untyped_storage().nbytes()
        return t.detach()

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    return sum(sizes.values())
