# Alternative style: Kahn's algorithm (count the edges into each node, emit a node when all its users are out).
from collections import deque


def topological_order(root):
    users, nodes, todo = {}, {id(root): root}, [root]
    while todo:
        node = todo.pop()
        for child in node._prev:
            users[id(child)] = users.get(id(child), 0) + 1
            if id(child) not in nodes:
                nodes[id(child)] = child
                todo.append(child)
    order, ready = [], deque([root])
    while ready:
        node = ready.popleft()
        order.append(node)
        for child in node._prev:
            users[id(child)] -= 1
            if users[id(child)] == 0:
                ready.append(child)
    return order
