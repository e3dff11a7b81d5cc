# fails: test_param_bytes_hidden
# Canonical mistake: counts the state dict, which holds the buffers too (and a tied weight under each name).
# Hint: Reread which tensors the statement counts, and how often.
def param_bytes(model):
    return sum(t.numel() * t.element_size() for t in model.state_dict().values())
