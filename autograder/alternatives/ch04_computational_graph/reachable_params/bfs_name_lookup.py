# Alternative style: breadth-first with a deque, a dict from id(parameter) to its position, results sorted by it.
from collections import deque


def reachable_params(loss, model):
    if loss.grad_fn is None:
        return []
    position = {id(p): (i, name) for i, (name, p) in enumerate(model.named_parameters())}
    found = set()
    queue, seen = deque([loss.grad_fn]), {id(loss.grad_fn)}
    keep = [loss.grad_fn]
    while queue:
        node = queue.popleft()
        if hasattr(node, "variable") and id(node.variable) in position:
            found.add(position[id(node.variable)])
        for child, _ in node.next_functions:
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                keep.append(child)
                queue.append(child)
    return [name for _, name in sorted(found)]
