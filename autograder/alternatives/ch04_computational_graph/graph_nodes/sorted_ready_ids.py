# Alternative style: breadth-first discovery with a deque, edge counts in a defaultdict, the ready list kept sorted
# by sequence number (newest last) and popped from the end; node names read with node.__class__.__name__.
from collections import defaultdict, deque


def graph_nodes(loss):
    start = loss.grad_fn
    if start is None:
        raise ValueError("there is no graph to read")
    indegree = defaultdict(int)
    queue, found = deque([start]), {start}
    while queue:
        node = queue.popleft()
        for child, _index in node.next_functions:
            if child is None:
                continue
            indegree[child] += 1
            if child not in found:
                found.add(child)
                queue.append(child)
    ready, order = [start], []
    while ready:
        ready.sort(key=lambda n: n._sequence_nr())
        node = ready.pop()
        order.append(node.__class__.__name__)
        for child, _index in node.next_functions:
            if child is not None:
                indegree[child] -= 1
                if indegree[child] == 0:
                    ready.append(child)
    return order
