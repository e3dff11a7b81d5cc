# Canonical mistake: dependency counting right, but ready nodes taken first-in-first-out instead of newest first.
# Hint: Reread step 2 of the statement: which ready node is taken next.
def graph_nodes(loss):
    root = loss.grad_fn
    if root is None:
        raise ValueError("loss.grad_fn is None")
    dependencies, stack, seen = {}, [root], {root}
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            dependencies[child] = dependencies.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    ready, names = [root], []
    while ready:
        node = ready.pop(0)
        names.append(type(node).__name__)
        for child, _ in node.next_functions:
            if child is None:
                continue
            dependencies[child] -= 1
            if dependencies[child] == 0:
                ready.append(child)
    return names
