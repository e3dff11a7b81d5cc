# Canonical mistake: depth-first post-order without a visited set; shared and reused nodes appear several times.
def topological_order(root):
    order = []

    def visit(node):
        for child in node._prev:
            visit(child)
        order.append(node)

    visit(root)
    return order[::-1]
