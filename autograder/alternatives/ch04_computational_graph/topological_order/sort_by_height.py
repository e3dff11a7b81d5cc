# Alternative style: no traversal order at all; every node's height (longest path down to a leaf) is memoised,
# and nodes are sorted by it, tallest first: a node is always taller than its inputs.
def topological_order(root):
    height, nodes = {}, {}

    def measure(node):
        if id(node) not in height:
            nodes[id(node)] = node
            height[id(node)] = 1 + max((measure(child) for child in node._prev), default=-1)
        return height[id(node)]

    measure(root)
    return sorted(nodes.values(), key=lambda n: -height[id(n)])
