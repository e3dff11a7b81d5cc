# Plausible mistake: "visited" stored on the nodes themselves and never cleared, so a second call on the same graph
# finds everything already visited.
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
