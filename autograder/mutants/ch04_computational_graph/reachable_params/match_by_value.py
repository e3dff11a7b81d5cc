# fails: test_reachable_params_hidden
# Canonical mistake: compares leaves with parameters by value, so equal-valued parameters are confused.
# Hint: Reread the second bullet of the statement: how tensors are compared.
def reachable_params(loss, model):
    leaves = []
    stack = [loss.grad_fn] if loss.grad_fn is not None else []
    seen = set(stack)
    while stack:
        node = stack.pop()
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return [name for name, p in model.named_parameters()
            if any(v.shape == p.shape and torch.equal(v, p) for v in leaves)]
