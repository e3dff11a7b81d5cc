# Canonical mistake: breadth-first order of first discovery; a node with a short and a long path comes too early.
# Hint: Reread the statement's last paragraph: why an order of first discovery is not enough.
def topological_order(root):
    order, seen, queue = [], {id(root)}, [root]
    while queue:
        node = queue.pop(0)
        order.append(node)
        for child in node._prev:
            if id(child) not in seen:
                seen.add(id(child))
                queue.append(child)
    return order
