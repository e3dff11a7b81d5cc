# Alternative style: ignores the order it is given and schedules nodes itself by counting their users (any valid
# order gives the same gradients).
def backward(root, order=None):
    users, nodes, todo = {}, [root], [root]
    seen = {id(root)}
    while todo:
        node = todo.pop()
        for child in node._prev:
            users[id(child)] = users.get(id(child), 0) + 1
            if id(child) not in seen:
                seen.add(id(child))
                nodes.append(child)
                todo.append(child)
    for node in nodes:
        if node._prev:
            node.grad = 0.0
    root.grad += 1.0
    ready = [root]
    while ready:
        node = ready.pop()
        for child, local in zip(node._prev, node._local_grads):
            child.grad += local * node.grad
            users[id(child)] -= 1
            if users[id(child)] == 0:
                ready.append(child)
