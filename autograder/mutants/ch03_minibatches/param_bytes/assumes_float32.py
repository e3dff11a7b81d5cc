# Canonical mistake: four bytes per element whatever the dtype.
# Hint: Reread the statement: the size of one element of each parameter's own dtype.
def param_bytes(model):
    return sum(p.numel() * 4 for p in model.parameters())
