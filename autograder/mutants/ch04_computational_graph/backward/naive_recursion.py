# Canonical mistake: recursion without a topological order; a node passes on its gradient before it is complete.
# Hint: Reread the statement: the nodes are processed in `order`, from `topological_order`.
def backward(root, order=None):
    root.grad += 1.0

    def push(node):
        for child, local in zip(node._prev, node._local_grads):
            child.grad += local * node.grad
            push(child)

    push(root)
