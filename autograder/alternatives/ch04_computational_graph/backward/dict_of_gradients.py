# Alternative style: gradients gathered in a dict keyed by id() first, then written: interior nodes get theirs,
# leaves add theirs to what they held.
def backward(root, order=None):
    order = topological_order(root) if order is None else order
    arriving = {id(node): 0.0 for node in order}
    arriving[id(root)] = 1.0
    for node in order:
        g = arriving[id(node)]
        for child, local in zip(node._prev, node._local_grads):
            arriving[id(child)] += local * g
    for node in order:
        if node._prev:
            node.grad = arriving[id(node)]
        else:
            node.grad += arriving[id(node)]
