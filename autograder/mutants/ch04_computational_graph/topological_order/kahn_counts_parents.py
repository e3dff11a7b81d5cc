# fails: test_topological_order_hidden
# Canonical mistake: Kahn's algorithm with in-degrees counted per distinct parent but decremented per edge: a node
# that one parent uses twice becomes ready before its other users have been emitted.
# Hint: Reread the statement: every node comes before all the nodes in its `_prev`, and an input can appear twice in
# one `_prev`.
def topological_order(root):
    parents, nodes, todo = {}, {id(root): root}, [root]
    while todo:
        node = todo.pop()
        for child in node._prev:
            parents.setdefault(id(child), set()).add(id(node))
            if id(child) not in nodes:
                nodes[id(child)] = child
                todo.append(child)
    count = {k: len(v) for k, v in parents.items()}
    order, ready = [], [root]
    while ready:
        node = ready.pop(0)
        order.append(node)
        for child in node._prev:
            count[id(child)] -= 1
            if count[id(child)] == 0:
                ready.append(child)
    return order
