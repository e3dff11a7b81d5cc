# Canonical mistake: walks the order backwards (inputs first), before any gradient has reached them.
# Hint: Reread step 3 of the statement: in which order the nodes of `order` are visited.
def backward(root, order=None):
    if order is None:
        order = topological_order(root)
    for node in order:
        if node._prev:
            node.grad = 0.0
    root.grad += 1.0
    for node in reversed(order):
        for child, local in zip(node._prev, node._local_grads):
            child.grad += local * node.grad
