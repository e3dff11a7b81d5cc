# Canonical mistake: the names returned as a tuple where the statement asks for a list.
# Hint: Reread the statement's first sentence and its parenthesis: the container it returns.
def reachable_params(loss, model):
    reached = set()
    stack = [loss.grad_fn] if loss.grad_fn is not None else []
    seen = set(stack)
    while stack:
        node = stack.pop()
        if hasattr(node, "variable"):
            reached.add(id(node.variable))
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return tuple(name for name, p in model.named_parameters() if id(p) in reached)
