# Alternative style: a plain list of ready nodes searched with max() instead of a heap; returns a tuple.
def graph_nodes(loss):
    if loss.grad_fn is None:
        raise ValueError("no graph: loss.grad_fn is None")
    counts = {}
    todo, seen = [loss.grad_fn], {loss.grad_fn}
    while todo:
        node = todo.pop()
        for child, _ in node.next_functions:
            if child is not None:
                counts[child] = counts.get(child, 0) + 1
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
    ready, names = [loss.grad_fn], []
    while ready:
        node = max(ready, key=lambda n: n._sequence_nr())
        ready.remove(node)
        names.append(type(node).__name__)
        for child, _ in node.next_functions:
            if child is not None:
                counts[child] -= 1
                if counts[child] == 0:
                    ready.append(child)
    return tuple(names)
