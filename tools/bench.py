"""`make bench`: how long the chapters take, against the floor every notebook pays.

In one run: each chapter's source notebook in the `cpu` and `grade` profiles, and in the `cpu` profile again with
the machine busy (two background processes spinning, as on a student's laptop with other work); two floor notebooks (kernel start +
`import torch` + `import course`, and the same plus a first torch.optim optimizer); grading time per notebook
and a synthetic class (--students per ready chapter: correct, wrong, blank, partly blank and broken notebooks,
from the reference solutions, autograder/mutants/ and autograder/corpus/) graded with `python -m autograder`
serially and with --jobs 2, against running the same notebooks plainly in the grader's sandbox. Prints each
median and its ratio to both floors, notebooks per minute and the grading overhead, checks the goals (cpu profile
<= 60 s, ch05 90 s, busy or quiet, and busy <= 3x quiet; grade profile <= 2x the floor with a first optimizer, more for some chapters;
grading <= 15 % over plain execution), writes bench-results/bench.json,
and exits 1 if a goal is missed.
"""
import argparse
import collections
import contextlib
import copy
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from autograder.catalogue import mutation
from autograder.reporting.grades import read_rows
from tools import notebook_run

ROOT = notebook_run.ROOT
CPU_GOAL_S = 60.0
CPU_GOAL_S_BY_CHAPTER = {"ch05_training_step": 90.0}  # it trains a decoder on real text and runs DDP
# Grade-profile goals are ratios to the floor with a first optimizer: every chapter trains something, and in torch
# 2.13 the first torch.optim optimizer imports torch._dynamo. Chapter -> its largest ratio, where it is not 2.
GRADE_GOAL_RATIO = 2.0
# ch06's checks start a second interpreter (determinism across processes) and two DDP workers, each importing torch.
GRADE_GOAL_RATIO_BY_CHAPTER = {"ch03_minibatches": 2.25, "ch05_training_step": 2.5, "ch06_preflight": 4.0}
BUSY_SPINNERS = 2   # background processes that each keep a core busy while the busy runs are timed
BUSY_GOAL_RATIO = 3.0


@contextlib.contextmanager
def busy_machine(spinners=BUSY_SPINNERS):
    """`spinners` background processes spinning on the CPU for the duration of the block."""
    processes = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(spinners)]
    try:
        yield
    finally:
        for process in processes:
            process.kill()
            process.wait()


def _median_run(path, profile, repeat):
    times = []
    for _ in range(repeat):
        nb, seconds = notebook_run.execute(path, profile)
        trouble = notebook_run.problems(nb)
        if trouble:
            raise SystemExit(f"{path.name} [{profile}] did not run clean: {trouble[:3]}")
        times.append(seconds)
    return statistics.median(times)


# The floor every notebook pays, and the same plus a first optimizer: in torch 2.13 constructing any
# torch.optim optimizer imports torch._dynamo (about 800 modules), a fixed cost of every chapter that trains.
FLOORS = {
    "floor (kernel + import torch + course)": "import torch\nimport course",
    "floor + first torch.optim optimizer": "import torch\nimport course\n"
                                           "torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)",
}


def _floor(code, repeat, scratch):
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell(code))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = Path(scratch) / "floor.ipynb"
    nbformat.write(nb, path)
    return _median_run(path, "grade", repeat)


# --- Grading a synthetic class ---------------------------------------------------------------------------------
# Per ten students of each chapter: five correct (the reference), two wrong (a mutant each), one blank (the
# release), one with a single exercise left blank (a stub), one broken (a corpus case or a generic breakage).
KINDS = ("correct", "wrong", "correct", "blank", "correct", "wrong", "correct", "partial", "correct", "broken")
# Corpus cases that run for their full timeout or exhaust a resource on purpose: minutes each, not grading speed.
SLOW_CASES = {"cpu_spin", "fork_bomb", "memory_hog", "disk_fill", "output_flood", "huge_notebook", "huge_prints"}
GRADING_OVERHEAD_GOAL = 0.15
DIAGNOSIS_GOAL = 0.05  # of the serial grading time: naming mistakes may cost a few percent, no more
# Runs a notebook's code cells in the grader's sandbox and nothing else: the floor grading is measured against.
PLAIN_RUNNER = """import json, os, shutil, sys
job = json.load(open(sys.argv[1]))
shutil.copytree(job["home_seed"], os.environ["HOME"], dirs_exist_ok=True)
shutil.copytree(job["data"], job["workdir"], dirs_exist_ok=True)
os.chdir(job["workdir"])
sys.path.append(job["workdir"])
namespace = {"__name__": "__main__"}
for source in job["cells"]:
    try:
        exec(compile(source, "<cell>", "exec"), namespace)
    except BaseException:
        pass
"""


def ready_chapters(course=ROOT):
    """Assignments with a source and a release notebook: those a class can hand in."""
    return sorted(p.parent.name for p in (course / "source").glob("*/*.ipynb")
                  if p.stem == p.parent.name and (course / "release" / p.stem / p.name).is_file())


def _corpus_cases(source_nb):
    """(name, case) of the quick corpus cases that apply to this notebook: only replacements of its own cells,
    written as a notebook or as raw or truncated text; no canary, none that may end by its timeout."""
    ids = {cell.metadata.get("nbgrader", {}).get("grade_id") for cell in source_nb.cells}
    cases = []
    for path in sorted((ROOT / "autograder" / "corpus").glob("*/case.json")):
        case, name = json.loads(path.read_text()), path.parent.name
        edits, how = case.get("edits", []), case.get("submission", {})
        statuses = case.get("expect_status", [])   # one status, or a list of those it may end with
        may_time_out = "timeout" in ([statuses] if isinstance(statuses, str) else statuses)
        if (name in SLOW_CASES or name.startswith("hang") or may_time_out
                or "canary" in case or set(how) - {"raw", "truncate"}
                or any(set(edit) - {"replace", "source", "file"} or edit["replace"] not in ids for edit in edits)):
            continue
        cases.append((name, case))
    return cases


def _broken(source_nb, release_nb, case_dir, case):
    """The text of a corpus case's submission."""
    nb = copy.deepcopy(source_nb if case["base"] == "reference" else release_nb)
    for edit in case.get("edits", []):
        text = (case_dir / edit["file"]).read_text() if "file" in edit else edit["source"]
        for cell in nb.cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id") == edit["replace"]:
                cell.source = text
    how = case.get("submission", {})
    if "raw" in how:
        return how["raw"]
    text = nbformat.writes(nb)
    return text[:how["truncate"]] if "truncate" in how else text


def make_class(course, chapters, students, submitted, mutants_root):
    """Writes `students` submissions of each chapter of the course; returns {kind: count}."""
    counts = {}
    for chapter in chapters:
        source = nbformat.read(course / "source" / chapter / f"{chapter}.ipynb", as_version=4)
        release = nbformat.read(course / "release" / chapter / f"{chapter}.ipynb", as_version=4)
        mutants = mutation.load_mutants(source, release, mutants_root / chapter)
        stubs = [m for m in mutants if m.name == "stub"]
        wrong = [m for m in mutants if m.name != "stub"] or stubs
        broken = _corpus_cases(source)
        # Generic breakage for chapters the corpus (written for ch01) does not fit: the process dies in the
        # first exercise, and a file cut off half-way.
        first = mutation.solution_cells(source)[0]
        died = {"base": "reference", "edits": [{"replace": first, "source": "import os\nos._exit(1)\n"}]}
        cases = [("os_exit", died), *broken, ("truncated", {"base": "reference", "submission": {"truncate": 1000}})]
        made = collections.Counter()  # of each kind in this chapter so far
        # The wrong and partial students' mistakes are spread evenly over the catalogue, so every exercise gets its
        # share, as in a real class (the first n in file order would all be the first exercise's).
        of_kind = collections.Counter(KINDS[i % len(KINDS)] for i in range(students))
        for i in range(students):
            kind = KINDS[i % len(KINDS)]
            nth = made[kind]
            made[kind] += 1
            counts[kind] = counts.get(kind, 0) + 1
            student, folder = f"student{i:03d}", submitted / f"student{i:03d}" / chapter
            if kind == "correct":
                mutation.write_submission(source, submitted, student, chapter, chapter)
            elif kind == "blank":
                mutation.write_submission(release, submitted, student, chapter, chapter)
            elif kind in ("wrong", "partial"):
                pool = wrong if kind == "wrong" else stubs
                mutant = pool[nth * len(pool) // of_kind[kind]]
                mutation.write_submission(mutation.mutant_notebook(source, mutant), submitted, student, chapter,
                                          chapter)
            else:
                name, case = cases[nth % len(cases)]
                folder.mkdir(parents=True, exist_ok=True)
                text = _broken(source, release, ROOT / "autograder" / "corpus" / name, case)
                (folder / f"{chapter}.ipynb").write_text(text)
    return counts


def _grade(course, chapters, submitted, out, *options):
    """Grades the class; returns wall seconds, the grading log's seconds per notebook, the seconds of the
    sandboxed runs, and the seconds the diagnosis took within them."""
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out),
                    "--course-dir", str(course),
                    *[a for chapter in chapters for a in ("--assignment", chapter)], *options],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    log = (out / "grading.log").read_text()
    per_notebook = {(student, chapter): float(seconds) for student, chapter, seconds
                    in re.findall(r"^==== (\S+) / (\S+) / .*\(([0-9.]+) s\)$", log, re.M)}
    # The sandboxed runs alone, as the grader timed them: measured in the same minutes as the grading around
    # them, so their ratio holds even when other work on the machine comes and goes.
    runs = sum(float(seconds) for seconds in re.findall(r"^run: .*, ([0-9.]+) s$", log, re.M))
    # The diagnosis times itself inside each run, after the last cell: its own cost, whatever else the machine does.
    diagnosis = sum(float(seconds) for seconds in re.findall(r"^diagnosis: ([0-9.]+) s", log, re.M))
    return wall, per_notebook, runs, diagnosis


def _plain_in_sandbox(course, submitted, scratch, students):
    """Seconds to run the submitted notebooks of `students` (those readable), code cells as they are, in the
    grader's sandbox (same jail, limits and environment, one process per notebook), with nothing else: no
    repair, scan, per-cell checks, scoring or feedback. The baseline the grading overhead is measured against."""
    from autograder.grading import plan
    from autograder.grading.batch import GRADING_ENV, build_home_seed
    from autograder.grading.sandbox import Limits, Sandbox

    temp = Path(scratch) / "plain"
    temp.mkdir()
    sandbox = Sandbox(True, Limits(cell_timeout=60.0, notebook_timeout=600.0), temp, GRADING_ENV)
    seconds = 0.0
    try:
        sandbox.preflight(temp / "preflight")
        build_home_seed(sandbox.home_seed, {"matplotlib"})
        for n, path in enumerate(sorted(submitted.glob("*/*/*.ipynb"))):
            if path.parent.parent.name not in students:
                continue
            try:
                nb = nbformat.read(path, as_version=4)
            except Exception:  # an unreadable notebook has nothing to run
                continue
            cells = [plan.python_source(c.source) for c in nb.cells if c.cell_type == "code"]
            work = temp / f"run-{n}"
            data = work / "data"
            release = course / "release" / path.parent.name
            shutil.copytree(release, data, ignore=shutil.ignore_patterns("*.ipynb"))
            (data / "plain.py").write_text(PLAIN_RUNNER)
            with sandbox.jail(work) as jail:
                (data / "plain.json").write_text(json.dumps({"cells": cells, "data": jail.data, "workdir":
                                                             jail.workdir, "home_seed": jail.home_seed}))
                start = time.perf_counter()
                with open(os.devnull, "wb") as sink:
                    process = jail.start([sys.executable, "-s", "-B", f"{jail.data}/plain.py",
                                          f"{jail.data}/plain.json"], (), sink.fileno())
                    try:
                        process.wait(timeout=600)
                    except subprocess.TimeoutExpired:
                        pass
                seconds += time.perf_counter() - start
            shutil.rmtree(work, ignore_errors=True)
    finally:
        sandbox.close()
    return seconds


def grading(course, chapters, students, scratch, results, failures, mutants_root=ROOT / "autograder" / "mutants",
            plain_sample=len(KINDS)):
    """A synthetic class graded serially and with --jobs 2: throughput, and overhead over plain execution of the
    notebooks of the first `plain_sample` students (0: all), one of each kind when it is len(KINDS): running the
    whole class a third time would add half the bench's time and tell little more."""
    submitted = Path(scratch) / "class"
    counts = make_class(course, chapters, students, submitted, mutants_root)
    notebooks = students * len(chapters)
    print(f"\ngrading a synthetic class: {students} students x {len(chapters)} chapters = {notebooks} notebooks "
          f"({', '.join(f'{n} {kind}' for kind, n in sorted(counts.items()))})")
    serial, per_notebook, runs, diagnosis = _grade(course, chapters, submitted, Path(scratch) / "serial")
    parallel, _, _, _ = _grade(course, chapters, submitted, Path(scratch) / "jobs2", "--jobs", "2")
    sample = [f"student{i:03d}" for i in range(min(plain_sample or students, students))]
    plain_sample_s = _plain_in_sandbox(course, submitted, scratch, set(sample))
    # Plain execution of the whole class, from the sample; the sample's grading times, notebook by notebook.
    plain = plain_sample_s * students / len(sample)
    statuses = collections.Counter(row["status"] for row in read_rows(Path(scratch) / "serial" / "grades.csv"))
    overhead = serial / plain - 1
    per_notebook_overhead = sum(t for (student, _), t in per_notebook.items() if student in sample) / plain_sample_s - 1
    results.update({"class_students": students, "class_chapters": chapters, "class_notebooks": notebooks,
                    "class_statuses": dict(statuses), "grading_serial_s": serial, "grading_jobs2_s": parallel,
                    "grading_notebooks_per_min_serial": notebooks / serial * 60,
                    "grading_notebooks_per_min_jobs2": notebooks / parallel * 60,
                    "plain_in_sandbox_s": plain, "plain_sample_students": len(sample), "grading_overhead": overhead,
                    "grading_overhead_per_notebook": per_notebook_overhead,
                    "grading_beyond_sandbox_runs": serial / runs - 1 if runs else None,
                    "grading_diagnosis_s": diagnosis, "grading_diagnosis_share": diagnosis / serial})
    print(f"statuses: {', '.join(f'{n} {status}' for status, n in sorted(statuses.items()))}")
    print(f"{'grading, serial':42s} {serial:8.1f} s  {notebooks / serial * 60:6.1f} notebooks/min")
    print(f"{'grading, --jobs 2':42s} {parallel:8.1f} s  {notebooks / parallel * 60:6.1f} notebooks/min "
          f"({serial / parallel:.2f}x serial)")
    print(f"{'plain execution in the sandbox':42s} {plain:8.1f} s  {notebooks / plain * 60:6.1f} notebooks/min"
          f"{f' (from {len(sample)} of {students} students)' if len(sample) < students else ''}")
    print(f"{'grading overhead over plain execution':42s} {overhead:8.1%}  (whole run, serial; per notebook, "
          f"without the run's fixed start: {per_notebook_overhead:.1%}; goal <= {GRADING_OVERHEAD_GOAL:.0%})")
    if runs:
        print(f"{'grading beyond its sandboxed runs':42s} {serial / runs - 1:8.1%}  (serial run vs the runs it timed: "
              "the grader's own work, same minutes)")
    print(f"{'diagnosis (the catalogue, inside the runs)':42s} {diagnosis:8.1f} s  {diagnosis / serial:6.1%} of the "
          f"serial grading (its replays, timed by the runner; goal <= {DIAGNOSIS_GOAL:.0%})")
    if overhead > GRADING_OVERHEAD_GOAL:
        failures.append(f"grading overhead {overhead:.1%} > {GRADING_OVERHEAD_GOAL:.0%} over plain execution")
    if diagnosis > DIAGNOSIS_GOAL * serial:
        failures.append(f"diagnosis {diagnosis / serial:.1%} > {DIAGNOSIS_GOAL:.0%} of the grading time")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (the median is reported)")
    parser.add_argument("--students", type=int, default=40, help="students in the synthetic class (default: 40)")
    parser.add_argument("--chapters", nargs="*", default=notebook_run.chapters())
    parser.add_argument("--plain-sample", type=int, default=len(KINDS), metavar="N",
                        help="students whose notebooks also run plainly in the sandbox, the overhead's baseline "
                             f"(default: {len(KINDS)}, one of each kind; 0: all)")
    parser.add_argument("--grading-only", action="store_true", help="only grade the synthetic class")
    parser.add_argument("--quiet-only", action="store_true",
                        help=f"skip the cpu-profile runs with {BUSY_SPINNERS} background processes spinning")
    args = parser.parse_args(argv)

    results, failures = {}, []
    with tempfile.TemporaryDirectory(prefix="fbf-bench-") as scratch:
        if not args.grading_only:
            floors = {label: _floor(code, args.repeat, scratch) for label, code in FLOORS.items()}
            floor, optim_floor = floors.values()
            results["floor"], results["floor_with_optimizer"] = floor, optim_floor
            print(f"{'measurement':42s} {'median s':>9s} {'x floor':>8s} {'x optim floor':>14s}")
            for label, seconds in floors.items():
                print(f"{label:42s} {seconds:9.2f} {seconds / floor:8.2f} {seconds / optim_floor:14.2f}")
            for chapter in args.chapters:
                for profile in ("cpu", "grade"):
                    seconds = _median_run(notebook_run.source_notebook(chapter), profile, args.repeat)
                    results[f"{chapter}/{profile}"] = seconds
                    print(f"{chapter + ' [' + profile + ']':42s} {seconds:9.2f} {seconds / floor:8.2f} "
                          f"{seconds / optim_floor:14.2f}")
                    cpu_goal = CPU_GOAL_S_BY_CHAPTER.get(chapter, CPU_GOAL_S)
                    if profile == "cpu" and seconds > cpu_goal:
                        failures.append(f"{chapter} cpu profile {seconds:.1f} s > {cpu_goal:.0f} s")
                    if profile == "cpu" and not args.quiet_only:
                        with busy_machine():
                            busy = _median_run(notebook_run.source_notebook(chapter), profile, args.repeat)
                        results[f"{chapter}/cpu-busy"] = busy
                        print(f"{chapter + ' [cpu, busy]':42s} {busy:9.2f} {busy / floor:8.2f} "
                              f"{busy / optim_floor:14.2f}   ({busy / seconds:.2f}x quiet, "
                              f"{BUSY_SPINNERS} processes spinning)")
                        if busy > cpu_goal or busy > BUSY_GOAL_RATIO * seconds:
                            failures.append(f"{chapter} cpu profile busy {busy:.1f} s: goal <= {cpu_goal:.0f} s and "
                                            f"<= {BUSY_GOAL_RATIO:g}x quiet ({seconds:.1f} s)")
                    grade_goal = GRADE_GOAL_RATIO_BY_CHAPTER.get(chapter, GRADE_GOAL_RATIO)
                    if profile == "grade" and seconds > grade_goal * optim_floor:
                        failures.append(f"{chapter} grade profile {seconds / optim_floor:.2f}x floor with a first "
                                        f"optimizer > {grade_goal}x")
        grading(ROOT, [c for c in args.chapters if c in ready_chapters()], args.students, scratch, results, failures,
                plain_sample=args.plain_sample)

    out = ROOT / "bench-results"
    out.mkdir(exist_ok=True)
    (out / "bench.json").write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    for failure in failures:
        print("GOAL MISSED:", failure)
    print("all goals met" if not failures else f"{len(failures)} goal(s) missed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
