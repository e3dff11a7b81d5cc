# Canonical mistake: the article's checklist: a parameter counts as connected when p.grad_fn is not None.
# Hint: Reread the first bullet of the statement: which node tells that a parameter is reached.
# Equivalent: direct_children_only
def reachable_params(loss, model):
    return [name for name, p in model.named_parameters() if p.grad_fn is not None]
