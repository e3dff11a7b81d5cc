# Canonical mistake: depth-first post-order without a visited set; shared and reused nodes appear several times.
# Hint: Reread the statement's first sentence: each node exactly once.
def topological_order(root):
    order = []

    def visit(node):
        for child in node._prev:
            visit(child)
        order.append(node)

    visit(root)
    return order[::-1]
