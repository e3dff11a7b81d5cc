# Alternative style: recursion, and the reached leaves kept as a set of tensors (tensors hash by identity).
def reachable_params(loss, model):
    leaves, visited = set(), set()

    def walk(node):
        if node is None or node in visited:
            return
        visited.add(node)
        variable = getattr(node, "variable", None)
        if variable is not None:
            leaves.add(variable)
        for child, _ in node.next_functions:
            walk(child)

    walk(loss.grad_fn)
    return [name for name, p in model.named_parameters() if p in leaves]
