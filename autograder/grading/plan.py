"""What the runner executes: every code cell of a repaired notebook, as plain Python, with its kind.

IPython syntax (`%magic`, `!cmd`) is turned into Python here, in the grader, by a fresh TransformerManager: no
shell, transformer list or event hook of a running IPython is involved, so nothing a notebook registers can
rewrite a later cell. For course cells (locked and test cells) the plan also lists what they import and define,
so that the runner can put those names back before each test cell, and preload the modules before any
student code runs.
"""
import ast
import functools
import threading

from IPython.core.inputtransformer2 import TransformerManager

from ..course_root import Blueprint


# CPython 3.11's parser keeps state that two threads parsing at once can corrupt ("AST constructor recursion
# depth mismatch"): the grader parses under this lock, as --jobs runs notebooks in threads.
_PARSING = threading.Lock()


def parse(source: str) -> ast.Module | None:
    """The syntax tree of `source`, or None when it does not parse (or is too deep to)."""
    with _PARSING:
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


@functools.lru_cache(maxsize=4096)  # course cells are the same in every notebook of an assignment
def python_source(source: str) -> str:
    """`source` with IPython syntax turned into Python calls; unchanged if it cannot be transformed (the runner
    then reports the SyntaxError in that cell)."""
    with _PARSING:
        try:
            return TransformerManager().transform_cell(source)
        except Exception:  # the transformer raises assorted errors on malformed input
            return source


def _top_level(tree: ast.Module):
    """Statements at module level, including those nested in if/try/with/for blocks, but not in defs."""
    stack = list(tree.body)
    while stack:
        node = stack.pop(0)
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stack.extend(child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt))


@functools.lru_cache(maxsize=4096)
def bindings(source: str) -> tuple[tuple, tuple, tuple]:
    """(imports as (name, module, attribute or None), defined names, modules to preload) of a course cell."""
    tree = parse(source)
    if tree is None:
        return (), (), ()
    imports, defines, modules = [], [], []  # lists while built; tuples out: cached results are shared
    for node in _top_level(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules.append(alias.name)
                if alias.asname:
                    imports.append([alias.asname, alias.name, None])
                else:
                    top = alias.name.split(".")[0]
                    imports.append([top, top, None])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.append(node.module)
            for alias in node.names:
                if alias.name != "*":
                    imports.append([alias.asname or alias.name, node.module, alias.name])
                    modules.append(f"{node.module}.{alias.name}")  # a submodule, if it is one
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defines.append(node.name)
    return tuple(map(tuple, imports)), tuple(defines), tuple(modules)


def cells(nb, blueprint: Blueprint) -> tuple[list[dict], list[str]]:
    """The runner's cells (index = position in the repaired notebook) and the modules course cells import."""
    planned, preload = [], []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        known = blueprint.cell(meta.get("grade_id")) if meta else None
        role = known.role if known else None
        kind = "test" if role == "test" else "course" if role == "locked" else "student"
        entry = {"index": index, "kind": kind, "source": python_source(cell.source),
                 "hidden": bool(known and known.hidden)}
        if kind != "student":
            imports, defines, modules = bindings(entry["source"])
            entry.update(imports=imports, defines=defines)
            preload.extend(m for m in modules if m not in preload)
        planned.append(entry)
    return planned, preload
