# Canonical mistake: reports every parameter that requires grad, whether or not the loss reaches it.
def reachable_params(loss, model):
    return [name for name, p in model.named_parameters() if p.requires_grad]
