# fails: test_reachable_params_hidden
# Canonical mistake: a parameter counted as reached when a reached leaf has its shape (and dtype), not when it is that
# very tensor: equal-shaped layers are confused.
# Hint: Reread the second bullet of the statement: how tensors are compared, and why.
def reachable_params(loss, model):
    shapes = set()
    stack = [loss.grad_fn] if loss.grad_fn is not None else []
    seen = set(stack)
    while stack:
        node = stack.pop()
        if hasattr(node, "variable"):
            shapes.add((tuple(node.variable.shape), node.variable.dtype))
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return [name for name, p in model.named_parameters() if (tuple(p.shape), p.dtype) in shapes]
