# Canonical mistake: four bytes per element whatever the dtype.
def param_bytes(model):
    return sum(p.numel() * 4 for p in model.parameters())
