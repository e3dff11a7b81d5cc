# Canonical mistake: four bytes per element whatever the dtype.
# Hint: Reread how the statement sizes one element.
def param_bytes(model):
    return sum(p.numel() * 4 for p in model.parameters())
