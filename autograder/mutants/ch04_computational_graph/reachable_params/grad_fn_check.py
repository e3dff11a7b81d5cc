# Canonical mistake (the article's checklist): a parameter counts as connected when p.grad_fn is not None.
def reachable_params(loss, model):
    return [name for name, p in model.named_parameters() if p.grad_fn is not None]
