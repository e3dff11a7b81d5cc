# Canonical mistake: de-duplicates by storage but counts each saved tensor's own size (a view of a bigger
# storage is counted small).
# Hint: Reread whose size the statement counts: the saved tensor's, or its storage's.
def activation_bytes(fn, params=()):
    skip = {p.untyped_storage() for p in params}
    sizes = {}

    def pack(t):
        key = t.untyped_storage()
        if key not in skip:
            sizes[key] = max(sizes.get(key, 0), t.numel() * t.element_size())
        return t.detach()

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    return sum(sizes.values())
