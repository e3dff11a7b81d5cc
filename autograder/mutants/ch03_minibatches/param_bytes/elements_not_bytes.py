# Canonical mistake: counts elements, not bytes.
def param_bytes(model):
    return sum(p.numel() for p in model.parameters())
