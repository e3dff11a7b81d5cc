# Canonical mistake: resets every gradient, leaves included, so backward twice does not accumulate like PyTorch.
# Hint: Reread step 1 and the paragraph after the steps: which nodes are never reset.
def backward(root, order=None):
    if order is None:
        order = topological_order(root)
    for node in order:
        node.grad = 0.0
    root.grad = 1.0
    for node in order:
        for child, local in zip(node._prev, node._local_grads):
            child.grad += local * node.grad
