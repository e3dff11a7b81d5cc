# Canonical mistake: breadth-first walk without a visited set; a node reached along two edges is listed twice.
# Hint: Reread the statement's first sentence and step 1: each node once, even when reached along two edges.
def graph_nodes(loss):
    root = loss.grad_fn
    if root is None:
        raise ValueError("loss.grad_fn is None")
    names, queue = [], [root]
    while queue:
        node = queue.pop(0)
        names.append(type(node).__name__)
        queue.extend(child for child, _ in node.next_functions if child is not None)
    return names
