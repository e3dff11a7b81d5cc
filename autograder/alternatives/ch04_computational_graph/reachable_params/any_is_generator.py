# Alternative style: collect every AccumulateGrad's leaf in a list, then test each parameter with any(... is ...).
def reachable_params(loss, model):
    stack = [] if loss.grad_fn is None else [loss.grad_fn]
    seen, leaves = [], []
    while stack:
        node = stack.pop()
        if any(node is s for s in seen):
            continue
        seen.append(node)
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        stack.extend(child for child, _ in node.next_functions if child is not None)
    names = []
    for name, param in model.named_parameters():
        if any(param is leaf for leaf in leaves):
            names.append(name)
    return names
