# Canonical mistake: adds up every saved tensor, so a tensor saved twice counts twice.
# Hint: Reread how often the statement says to count a storage that several saved tensors share.
def activation_bytes(fn, params=()):
    skip = {p.untyped_storage() for p in params}
    total = [0]

    def pack(t):
        if t.untyped_storage() not in skip:
            total[0] += t.untyped_storage().nbytes()
        return t.detach()

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    return total[0]
