# Canonical mistake: looks only at the loss node's direct next_functions instead of walking the whole graph.
# Hint: Reread the first bullet of the statement: the walk covers everything reachable, not one step.
def reachable_params(loss, model):
    if loss.grad_fn is None:
        return []
    reached = {id(child.variable) for child, _ in loss.grad_fn.next_functions
               if child is not None and hasattr(child, "variable")}
    return [name for name, p in model.named_parameters() if id(p) in reached]
