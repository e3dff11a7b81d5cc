# Canonical mistake: runs backward and checks .grad, which writes gradients as a side effect.
# Hint: Reread the last bullet of the statement: read the graph only.
def reachable_params(loss, model):
    if loss.grad_fn is None:
        return []
    loss.backward(retain_graph=True)
    return [name for name, p in model.named_parameters() if p.grad is not None]
