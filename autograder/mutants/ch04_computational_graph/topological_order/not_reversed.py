# Canonical mistake: returns the post-order as it is (inputs first, root last) instead of reversing it.
# Hint: Reread the statement: `root` first, every node before its inputs.
def topological_order(root):
    order, visited = [], set()

    def visit(node):
        if id(node) in visited:
            return
        visited.add(id(node))
        for child in node._prev:
            visit(child)
        order.append(node)

    visit(root)
    return order
