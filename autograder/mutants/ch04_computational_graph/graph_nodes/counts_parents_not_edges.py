# fails: test_graph_nodes_hidden
# Canonical mistake: dependencies counted once per parent node, not once per edge, so a node that one parent uses
# twice (x * x) is decremented past zero and never becomes ready.
# Hint: Reread step 1 of the statement: the edges that point at a node are counted, two edges from one parent
# included.
def graph_nodes(loss):
    root = loss.grad_fn
    if root is None:
        raise ValueError("loss.grad_fn is None")
    parents, stack, seen = {}, [root], {root}
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            parents.setdefault(child, set()).add(node)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    dependencies = {child: len(p) for child, p in parents.items()}
    ready, pushed, names = [(-root._sequence_nr(), 0, root)], 1, []
    while ready:
        _, _, node = heapq.heappop(ready)
        names.append(type(node).__name__)
        for child, _ in node.next_functions:
            if child is None:
                continue
            dependencies[child] -= 1
            if dependencies[child] == 0:
                heapq.heappush(ready, (-child._sequence_nr(), pushed, child))
                pushed += 1
    return names
