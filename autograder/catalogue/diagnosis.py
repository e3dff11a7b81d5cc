"""The grader's side of a diagnosis: what the runner is asked to compare (catalogue.behaviour does it, in the
sandbox, from the student's own run, after the notebook's last cell), and what is kept of its answer.

Asked for: every exercise the student attempted (its solution cell is no longer the release's stub) that has
entries in the catalogue, with its own test cells (by position in the repaired notebook), every entry's code, and
whether the test cells may be replayed in any order (none reads a name another binds).
Kept: the mistakes named for exercises that lost points as the grader scored them (a passing exercise is never
diagnosed), each with the catalogue's description and hint; several only when the catalogue declares them
equivalent. No entry is written for one exercise: a new entry of
any exercise is diagnosed like the others.
"""
import ast
from dataclasses import dataclass

from ..course_root import Blueprint
from ..grading.plan import bindings, parse, python_source
from .entries import Entry, equivalents
from .mutation import owners

# Names through which a cell may read or bind any name: its names cannot be read off its syntax.
OPAQUE = frozenset({"get_ipython", "globals", "locals", "vars", "exec", "eval", "__import__", "__builtins__"})


@dataclass(frozen=True)
class Diagnosis:
    exercise: str
    mistake: str  # the catalogue file's stem
    description: str
    hint: str = ""  # not in diagnoses.csv: a merge reads it back without


def test_owners(blueprint: Blueprint) -> dict[str, str]:
    """test cell grade_id -> the exercise it tests."""
    return owners([c.grade_id for c in blueprint.cells if c.role == "solution"], [c.grade_id for c in blueprint.tests])


def _stored(node: ast.AST) -> set[str]:
    """The names an assignment target (or a def, class or import) binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}


def _loaded(node: ast.AST | None, local: frozenset = frozenset()) -> set[str]:
    """The names an expression or statement reads from the cell's namespace: not those a function, lambda or
    comprehension inside it binds for itself (its parameters, its assignments, its loop variables)."""
    if node is None:
        return set()
    if isinstance(node, ast.Name):
        return {node.id} - local if not isinstance(node.ctx, ast.Store) else set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        arguments = node.args
        parameters = {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs} | {
            a.arg for a in (arguments.vararg, arguments.kwarg) if a}
        body = node.body if isinstance(node.body, list) else [node.body]
        declared = {name for n in body for d in ast.walk(n) if isinstance(d, (ast.Global, ast.Nonlocal))
                    for name in d.names}
        own = (parameters | {name for n in body for name in _stored_anywhere(n)}) - declared
        outside = [*arguments.defaults, *(d for d in arguments.kw_defaults if d),
                   *getattr(node, "decorator_list", [])]
        return set().union(*(_loaded(d, local) for d in outside),
                           *(_loaded(n, local | frozenset(own)) for n in body))
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        own = local | frozenset(name for g in node.generators for name in _stored(g.target))
        return set().union(*(_loaded(child, own) for child in ast.iter_child_nodes(node)))
    return set().union(*(_loaded(child, local) for child in ast.iter_child_nodes(node)))


def _stored_anywhere(node: ast.AST) -> set[str]:
    """The names a function body binds for itself (not inside functions or comprehensions it holds)."""
    if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
        return _stored(node)
    own = {node.id} if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) else set()
    return own.union(*(_stored_anywhere(child) for child in ast.iter_child_nodes(node)))


def _reads_before_binding(statements: list, bound: set[str]) -> set[str]:
    """The names `statements` read from the namespace before they bind them, in the order Python runs them (an
    assignment's value is read before its target is bound; a loop's variable is bound in its body); `bound`
    grows with what they surely bind: not what a branch, a loop body or a try body may leave unbound."""
    read = set()
    for st in statements:
        if isinstance(st, (ast.For, ast.AsyncFor)):
            read |= _loaded(st.iter) - bound
            read |= _reads_before_binding(st.body, bound | _stored(st.target))
            read |= _reads_before_binding(st.orelse, set(bound))
        elif isinstance(st, (ast.If, ast.While)):
            read |= _loaded(st.test) - bound
            read |= _reads_before_binding(st.body, set(bound)) | _reads_before_binding(st.orelse, set(bound))
        elif isinstance(st, (ast.With, ast.AsyncWith)):
            for item in st.items:
                read |= _loaded(item.context_expr) - bound
                bound |= _stored(item.optional_vars) if item.optional_vars else set()
            read |= _reads_before_binding(st.body, bound)
        elif isinstance(st, ast.Try):
            read |= _reads_before_binding(st.body, set(bound))
            for handler in st.handlers:
                read |= _loaded(handler.type) - bound
                read |= _reads_before_binding(handler.body, bound | ({handler.name} if handler.name else set()))
            read |= _reads_before_binding(st.orelse, set(bound)) | _reads_before_binding(st.finalbody, set(bound))
        elif isinstance(st, (ast.Assign, ast.AnnAssign)):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            read |= (_loaded(st.value) | set().union(*map(_loaded, targets))) - bound  # x[i] = v reads x and i
            bound |= set().union(*map(_stored, targets))
        elif isinstance(st, ast.AugAssign):
            read |= (_loaded(st.value) | _stored(st.target) | _loaded(st.target)) - bound
            bound |= _stored(st.target)
        else:
            read |= _loaded(st) - bound
            bound |= _stored(st) if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                                    ast.Import, ast.ImportFrom)) else set()
    return read


def _names_met(tree: ast.Module | None) -> tuple[set[str], set[str]] | None:
    """(the names a cell reads from the namespace before it binds them, functions it defines included; the
    names it binds there) or None when it is not Python or reaches the namespace other than by name (a magic,
    exec, globals())."""
    if tree is None or any(isinstance(n, ast.Name) and n.id in OPAQUE for n in ast.walk(tree)):
        return None
    bound = set()
    read = _reads_before_binding(tree.body, bound)
    return read, bound | {name for st in tree.body for name in _stored_anywhere(st)}


def independent(sources: list[str]) -> bool:
    """Whether test cells may be replayed in any order: none reads a name another binds, so what one replay
    defines never reaches another."""
    met = [_names_met(parse(python_source(source))) for source in sources]
    if any(m is None for m in met):
        return False
    return not any(met[i][0] & met[j][1] for i in range(len(met)) for j in range(len(met)) if i != j)


def request(blueprint: Blueprint, nb, catalogue: list[Entry], budget: float) -> dict | None:
    """The job's "diagnosis" part for the repaired notebook `nb`, or None when there is nothing to compare or no
    time (`budget`, seconds) to compare it in."""
    if budget <= 0:
        return None
    position = {cell.metadata.get("nbgrader", {}).get("grade_id"): index for index, cell in enumerate(nb.cells)}
    owner = test_owners(blueprint)
    exercises = []
    for course_cell in blueprint.cells:
        exercise = course_cell.grade_id
        mistakes = [{"name": e.name, "source": python_source(e.source)} for e in catalogue if e.exercise == exercise]
        if course_cell.role != "solution" or not mistakes or exercise not in position:
            continue
        if nb.cells[position[exercise]].source.strip() == course_cell.release_source.strip():
            continue  # not attempted: a stub behaves like no mistake
        tests = sorted(position[t] for t, x in owner.items() if x == exercise and t in position)
        if tests:
            names = bindings(python_source(course_cell.source))[1]  # what the reference solution defines
            exercises.append({"name": exercise, "names": list(names), "tests": tests, "mistakes": mistakes,
                              "any_order": independent([nb.cells[t].source for t in tests])})
    return {"exercises": exercises, "budget": budget} if exercises else None


def kept(found: dict, blueprint: Blueprint, cells, catalogue: list[Entry]) -> tuple[Diagnosis, ...]:
    """The runner's `found` ({exercise: [names]}) for the exercises whose test cells lost points. Several names
    for one exercise are kept only when the catalogue declares them equivalent: mistakes the probes cannot tell
    apart, though they are different, are a guess, and a guess is not said."""
    owner = test_owners(blueprint)
    lost = {owner[c.grade_id] for c in cells if c.score < c.max_score and c.grade_id in owner}
    described = {(e.exercise, e.name): e for e in catalogue}
    equivalent = equivalents(catalogue)
    kept_names = {exercise: names for exercise, names in (found or {}).items()
                  if exercise in lost and names and all((exercise, name) in described for name in names)
                  and set(names) <= {names[0]} | equivalent[(exercise, names[0])]}
    return tuple(Diagnosis(exercise, name, described[(exercise, name)].description,
                           described[(exercise, name)].hint) for exercise, names in kept_names.items()
                 for name in names)
