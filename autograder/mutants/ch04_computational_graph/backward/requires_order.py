# fails: test_backward_hidden
# Canonical mistake: the default order=None is never filled in, so backward(root) without an order fails.
# Hint: Reread the statement's second sentence: what to do when `order` is `None`.
def backward(root, order=None):
    for node in order:
        if node._prev:
            node.grad = 0.0
    root.grad += 1.0
    for node in order:
        for child, local in zip(node._prev, node._local_grads):
            child.grad += local * node.grad
