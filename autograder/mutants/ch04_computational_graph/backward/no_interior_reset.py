# Canonical mistake: interior gradients are not reset, so a second backward pushes the first call's gradients again.
# Hint: Reread step 1 of the statement: interior gradients are recomputed on every call.
def backward(root, order=None):
    if order is None:
        order = topological_order(root)
    root.grad = 1.0
    for node in order:
        for child, local in zip(node._prev, node._local_grads):
            child.grad += local * node.grad
