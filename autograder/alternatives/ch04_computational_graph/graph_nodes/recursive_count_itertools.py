# Alternative style: dependencies counted by a recursive walk into a Counter keyed by id() (nodes kept alive in a
# dict), a heap with itertools.count() as tie-breaker.
import itertools
from collections import Counter


def graph_nodes(loss):
    root = loss.grad_fn
    if root is None:
        raise ValueError("graph_nodes: the tensor has no grad_fn")
    nodes, deps = {id(root): root}, Counter()

    def walk(node):
        for child, _ in node.next_functions:
            if child is None:
                continue
            deps[id(child)] += 1
            if id(child) not in nodes:
                nodes[id(child)] = child
                walk(child)

    walk(root)
    tick = itertools.count()
    heap = [(-root._sequence_nr(), next(tick), root)]
    out = []
    while heap:
        node = heapq.heappop(heap)[2]
        out.append(type(node).__name__)
        for child, _ in node.next_functions:
            if child is not None:
                deps[id(child)] -= 1
                if not deps[id(child)]:
                    heapq.heappush(heap, (-child._sequence_nr(), next(tick), child))
    return out
