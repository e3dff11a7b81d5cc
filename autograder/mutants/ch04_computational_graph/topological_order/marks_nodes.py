# Canonical mistake: "visited" stored on the nodes themselves and never cleared, so a second call on the same graph
# finds everything already visited.
# Hint: Reread the statement's first paragraph: change nothing on the nodes, and the function is called more than
# once.
def topological_order(root):
    order = []

    def visit(node):
        if getattr(node, "_visited", False):
            return
        node._visited = True
        for child in node._prev:
            visit(child)
        order.append(node)

    visit(root)
    return order[::-1]
