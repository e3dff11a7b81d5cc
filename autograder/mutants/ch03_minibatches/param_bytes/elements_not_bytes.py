# Canonical mistake: counts elements, not bytes.
# Hint: Reread the unit of the answer: bytes, elements times element size.
def param_bytes(model):
    return sum(p.numel() for p in model.parameters())
