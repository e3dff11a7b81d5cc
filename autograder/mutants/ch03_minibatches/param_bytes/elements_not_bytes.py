# Canonical mistake: counts elements, not bytes.
# Hint: Reread the statement: the number of bytes, elements times the size of one element.
def param_bytes(model):
    return sum(p.numel() for p in model.parameters())
