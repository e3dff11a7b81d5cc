"""Drawing the backward graph: a torchviz picture when Graphviz is installed, a readable text tree otherwise.

    draw_graph(loss, params=dict(model.named_parameters()))

returns a `graphviz.Digraph` (shown as a picture in Jupyter) when the Graphviz `dot` program is on the PATH,
and a `TextGraph` otherwise. Both show the same thing: the backward nodes (`NllLossBackward0`,
`MmBackward0`, ...) with an edge from each node to the nodes it sends gradient to, and the leaves
(`AccumulateGrad`) labelled with the parameter's name and shape. Pass `backend="text"` or
`backend="torchviz"` to choose yourself.

The text tree prints every node once, numbered in the order it is first reached; a node reached again
(a tensor used twice, a residual connection) is printed as a reference `[7] ... (shared, shown above)`.
"""
import shutil
import warnings

import torch

BACKENDS = ("auto", "torchviz", "text")


def has_dot() -> bool:
    """True when Graphviz's `dot` program, which torchviz needs to render, is on the PATH."""
    return shutil.which("dot") is not None


def draw_graph(tensor, params=None, backend="auto", show_saved=False):
    """The backward graph of `tensor`: torchviz's `make_dot` if `dot` exists (or backend="torchviz"), else text.

    params: {name: tensor}, e.g. `dict(model.named_parameters())`, to name the leaves.
    show_saved: torchviz only; also draw the tensors each node saved for backward (orange).
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}: expected one of {', '.join(BACKENDS)}")
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"draw_graph needs a tensor, got {type(tensor).__name__}")
    if backend == "auto":
        backend = "torchviz" if has_dot() else "text"
    if backend == "text":
        return TextGraph(tensor, params)
    with warnings.catch_warnings():
        # torchviz 0.0.3 still compares versions with distutils' LooseVersion, which warns on every call
        warnings.simplefilter("ignore", DeprecationWarning)
        from torchviz import make_dot
        return make_dot(tensor, params=params, show_saved=show_saved)


def _shape(t):
    return "(" + ", ".join(str(d) for d in t.shape) + ")"


class TextGraph:
    """A text tree of a tensor's backward graph; `print()` it or let Jupyter show it.

    Attributes: `lines` (the rows of the tree) and `node_count` (distinct backward nodes).
    """

    def __init__(self, tensor, params=None):
        names = {id(p): name for name, p in (params or {}).items()}
        head = f"tensor {_shape(tensor)}"
        self.lines = []
        self.node_count = 0
        if tensor.grad_fn is None:
            what = "a leaf that requires grad" if tensor.requires_grad else "no graph: requires_grad=False"
            self.lines.append(f"{head}: {what}")
            return
        self.lines.append(f"{head} <- grad_fn")
        number = {}
        # iterative depth-first walk: (node, prefix for its line, prefix for its children, connector)
        stack = [(tensor.grad_fn, "", "")]
        while stack:
            node, prefix, child_prefix = stack.pop()
            if node in number:
                self.lines.append(f"{prefix}[{number[node]}] {type(node).__name__} (shared, shown above)")
                continue
            self.node_count += 1
            number[node] = self.node_count
            label = f"[{number[node]}] {type(node).__name__}"
            if hasattr(node, "variable"):
                var = node.variable
                label += f"  -> {names.get(id(var), 'leaf')} {_shape(var)}"
            self.lines.append(prefix + label)
            children = [child for child, _ in node.next_functions if child is not None]
            for i in reversed(range(len(children))):
                last = i == len(children) - 1
                stack.append((children[i], child_prefix + ("└─ " if last else "├─ "),
                              child_prefix + ("   " if last else "│  ")))

    def __str__(self):
        return "\n".join(self.lines)

    def __repr__(self):
        return str(self)

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))
