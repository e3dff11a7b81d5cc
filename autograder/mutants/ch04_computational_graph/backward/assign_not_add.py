# Canonical mistake: child.grad = ... instead of +=, so a node used twice keeps only its last contribution.
# Hint: Reread step 3 of the statement: the operator that updates `child.grad`.
def backward(root, order=None):
    if order is None:
        order = topological_order(root)
    for node in order:
        if node._prev:
            node.grad = 0.0
    root.grad += 1.0
    for node in order:
        for child, local in zip(node._prev, node._local_grads):
            child.grad = local * node.grad
