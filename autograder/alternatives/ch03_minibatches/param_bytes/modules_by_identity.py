# Walks every module's own parameters and counts each tensor once by identity; itemsize from the dtype.
def param_bytes(model):
    seen, total = set(), 0
    for module in model.modules():
        for p in module.parameters(recurse=False):
            if id(p) not in seen:
                seen.add(id(p))
                total += p.numel() * p.dtype.itemsize
    return total
