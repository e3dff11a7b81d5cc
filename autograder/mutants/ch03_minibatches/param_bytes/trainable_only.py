# fails: test_param_bytes_hidden
# Canonical mistake: counts only the parameters that require grad: a frozen parameter takes memory all the same.
# Hint: Reread which parameters the statement counts: trainable or frozen.
def param_bytes(model):
    return sum(p.numel() * p.element_size() for p in model.parameters() if p.requires_grad)
