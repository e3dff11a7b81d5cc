# fails: test_backward_hidden
# Canonical mistake: root.grad = 1.0 instead of += 1.0; a leaf root then does not accumulate like PyTorch.
# Hint: Reread step 2 of the statement: add `1.0` to `root.grad`.
def backward(root, order=None):
    if order is None:
        order = topological_order(root)
    for node in order:
        if node._prev:
            node.grad = 0.0
    root.grad = 1.0
    for node in order:
        for child, local in zip(node._prev, node._local_grads):
            child.grad += local * node.grad
