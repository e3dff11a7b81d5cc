# Canonical mistake: the heap takes the smallest sequence number (the oldest node) first.
# Hint: Reread step 2 of the statement: the ready node with the largest or the smallest sequence number?
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
    ready, pushed, names = [(root._sequence_nr(), 0, root)], 1, []
    while ready:
        _, _, node = heapq.heappop(ready)
        names.append(type(node).__name__)
        for child, _ in node.next_functions:
            if child is None:
                continue
            dependencies[child] -= 1
            if dependencies[child] == 0:
                heapq.heappush(ready, (child._sequence_nr(), pushed, child))
                pushed += 1
    return names
