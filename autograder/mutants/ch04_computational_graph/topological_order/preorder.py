# Canonical mistake: depth-first pre-order (a node listed when first met), not a reversed post-order.
# Hint: Reread the statement's last paragraph: which order the classic way appends nodes in, and what it does at the
# end.
def topological_order(root):
    order, visited = [], set()

    def visit(node):
        if id(node) in visited:
            return
        visited.add(id(node))
        order.append(node)
        for child in node._prev:
            visit(child)

    visit(root)
    return order
