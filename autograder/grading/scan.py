"""A static scan of the code a student wrote (solution cells and added cells), for an instructor to review.

It never changes a score: the runner's guard and audit hook decide at run time. It names what a reviewer should
look at: imports and attributes that reach into the interpreter, the grader, other processes or the network;
assignments to attributes of imported modules (monkeypatching); builtins redefined as functions; classes whose
comparison always succeeds; text that names grading files.
"""
import ast
import builtins

from .plan import parse, python_source

MODULES = {
    "sys": "the interpreter", "builtins": "builtins", "gc": "the garbage collector", "inspect": "frames",
    "ctypes": "raw memory", "IPython": "the IPython shell", "importlib": "the import system",
    "signal": "signals", "threading": "threads", "_thread": "threads", "multiprocessing": "processes",
    "subprocess": "processes", "socket": "the network", "urllib": "the network", "http": "the network",
    "requests": "the network", "unittest.mock": "monkeypatching", "atexit": "exit hooks", "marshal": "code objects",
    "resource": "resource limits", "faulthandler": "crash handlers", "pty": "terminals",
}
# Names and attributes that reach frames, code objects, hooks or the shell, wherever they appear.
INTERNALS = {
    "settrace", "setprofile", "_getframe", "_current_frames", "addaudithook", "f_back", "f_locals", "f_globals",
    "f_builtins", "tb_frame", "gi_frame", "cr_frame", "__code__", "__globals__", "__closure__", "__defaults__",
    "__kwdefaults__", "__builtins__", "__subclasses__", "__import__", "get_ipython", "input_transformers_cleanup",
    "input_transformers_post", "ast_transformers", "showtraceback", "excepthook", "displayhook",
}
# Attributes of os that start, signal or leave processes.
OS_ATTRIBUTES = {"kill", "killpg", "fork", "forkpty", "setsid", "_exit", "system", "popen", "execv", "execve",
                 "execvp", "spawnv", "spawnl", "putenv"}
CALLS = {"exec", "eval", "compile", "__import__", "setattr", "delattr", "get_ipython", "globals", "breakpoint"}
WORDS = ("gradebook", "nbgrader", "/proc/", "source/", "autograded")
COMPARISONS = {"__eq__", "__ne__"}
BUILTIN_BASES = {"str", "int", "float", "bool", "list", "dict", "tuple", "set", "frozenset", "complex"}
MAX_FINDINGS = 20


def _module_names(trees) -> set[str]:
    """Names bound to imported modules anywhere in the notebook (`torch`, `np`, `F`, ...), plus builtins."""
    names = {"builtins", "__builtins__"}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.update(alias.asname or alias.name for alias in node.names
                             if alias.name[:1].islower() and alias.name != "*")
    return names


def _root(node) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _dotted(node) -> str:
    try:
        return ast.unparse(node)[:60]
    except Exception:  # unparse of a malformed tree
        return "an attribute"


def _constant_return(function) -> bool:
    body = [n for n in function.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    return len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Constant)


def findings(tree: ast.Module, modules: set[str]) -> list[str]:
    """What one cell does that a reviewer should see, in source order."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"imports {a.name} ({MODULES[m]})" for a in node.names
                      for m in (a.name, a.name.split(".")[0]) if m in MODULES][:1]
        elif isinstance(node, ast.ImportFrom) and node.module:
            for m in (node.module, node.module.split(".")[0]):
                if m in MODULES:
                    found.append(f"imports from {node.module} ({MODULES[m]})")
                    break
        elif isinstance(node, ast.Attribute) and (node.attr in INTERNALS or (
                node.attr in OS_ATTRIBUTES and _root(node) in ("os", "posix")) or (
                node.attr == "modules" and _root(node) == "sys")):
            found.append(f"uses {_dotted(node)}")
        elif isinstance(node, ast.Name) and node.id in INTERNALS and isinstance(node.ctx, ast.Load):
            found.append(f"uses {node.id}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS:
            found.append(f"calls {node.func.id}()")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute) and _root(part) in modules:
                        found.append(f"assigns {_dotted(part)} (monkeypatching)")
                        break
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = [w for w in WORDS if w in node.value]
            if words:
                found.append(f"mentions {words[0]!r}")
        if isinstance(node, ast.ClassDef):
            bases = {b.id for b in node.bases if isinstance(b, ast.Name)} & BUILTIN_BASES
            if bases:
                found.append(f"class {node.name} subclasses {sorted(bases)[0]}")
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name in COMPARISONS and _constant_return(item):
                    found.append(f"class {node.name}: {item.name} always returns the same value")
    for node in tree.body:
        shadowed = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            shadowed = [node.name]
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
            shadowed = [t.id for t in node.targets if isinstance(t, ast.Name)]
        found += [f"redefines the builtin {name}" for name in shadowed if name in vars(builtins)]
    return list(dict.fromkeys(found))


def scan(nb) -> list[str]:
    """Flags for the student-written code cells of a repaired notebook: "scan: <cell>: <finding>"."""
    code = [(index, cell) for index, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    trees = {index: tree for index, cell in code if (tree := parse(python_source(cell.source))) is not None}
    modules = _module_names(trees.values())
    flags = []
    for index, cell in code:
        meta = cell.metadata.get("nbgrader", {})
        if index not in trees or (meta and not meta.get("solution")):
            continue  # course cells are the course's; cells that do not parse do not run
        label = f"cell {meta['grade_id']!r}" if meta else f"added cell {index + 1}"
        flags += [f"scan: {label} {finding}" for finding in findings(trees[index], modules)]
    return flags[:MAX_FINDINGS] + ([f"scan: {len(flags) - MAX_FINDINGS} more findings"]
                                   if len(flags) > MAX_FINDINGS else [])
