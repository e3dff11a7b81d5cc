# Alternative style: index loops over a list copy of the order, and float() of every product.
def backward(root, order=None):
    nodes = list(topological_order(root) if order is None else order)
    for i in range(len(nodes)):
        if len(nodes[i]._prev) > 0:
            nodes[i].grad = 0.0
    root.grad = root.grad + 1.0
    for i in range(len(nodes)):
        node = nodes[i]
        for k in range(len(node._prev)):
            node._prev[k].grad = node._prev[k].grad + float(node._local_grads[k] * node.grad)
