def param_bytes(model):
    total = 0
    for p in model.parameters():
        total += p.nbytes
    return int(total)
