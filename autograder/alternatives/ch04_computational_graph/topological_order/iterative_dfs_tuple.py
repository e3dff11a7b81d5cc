# Alternative style: depth-first search with an explicit stack instead of recursion; returns a tuple.
def topological_order(root):
    post, done, stack = [], set(), [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            post.append(node)
            continue
        if id(node) in done:
            continue
        done.add(id(node))
        stack.append((node, True))
        for child in reversed(node._prev):
            if id(child) not in done:
                stack.append((child, False))
    return tuple(reversed(post))
