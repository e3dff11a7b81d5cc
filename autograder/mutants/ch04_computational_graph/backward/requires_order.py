# fails: test_backward_hidden
# Plausible mistake: the default order=None is never filled in, so backward(root) without an order fails.
def backward(root, order=None):
    for node in order:
        if node._prev:
            node.grad = 0.0
    root.grad += 1.0
    for node in order:
        for child, local in zip(node._prev, node._local_grads):
            child.grad += local * node.grad
