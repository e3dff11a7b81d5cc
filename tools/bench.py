"""`make bench`: how long the chapters take, against the floor every notebook pays.

In one run: each chapter's source notebook in the `cpu` and `grade` profiles; two floor notebooks (kernel start +
`import torch` + `import course`, and the same plus a first torch.optim optimizer); grading time per notebook
with `python -m autograder`. Prints each median and its ratio to both floors, checks the goals (cpu profile
<= 60 s; grade profile <= 2x the floor), writes bench-results/bench.json, and exits 1 if a goal is missed.
"""
import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from tools import notebook_run

ROOT = notebook_run.ROOT
CPU_GOAL_S = 60.0
GRADE_GOAL_RATIO = 2.0


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


def _grade(chapters, students, scratch, *options):
    """Grades `students` reference copies of each chapter; returns (notebooks, wall seconds, median seconds per
    notebook as the grading log times them)."""
    submitted = Path(scratch) / "submitted"
    if not submitted.is_dir():
        for chapter in chapters:
            for i in range(students):
                folder = submitted / f"student{i:02d}" / chapter
                folder.mkdir(parents=True)
                shutil.copy(notebook_run.source_notebook(chapter), folder / f"{chapter}.ipynb")
    out = Path(scratch) / "graded"
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out),
                    *[a for chapter in chapters for a in ("--assignment", chapter)], *options],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    per_notebook = [float(t) for t in re.findall(r"^==== .*\(([0-9.]+) s\)$", (out / "grading.log").read_text(), re.M)]
    return len(per_notebook), wall, statistics.median(per_notebook)


def _grading(chapters, students, scratch, floor, results):
    """Grading time per notebook in and out of the sandbox, and the throughput of --jobs 2 against serial."""
    runs = {"sandbox": (), "no sandbox": ("--no-sandbox",), "sandbox, --jobs 2": ("--jobs", "2")}
    throughput = {}
    for label, options in runs.items():
        count, wall, per_nb = _grade(chapters, students, scratch, *options)
        throughput[label] = count / wall * 60
        key = label.replace(", ", "_").replace(" ", "_").replace("--", "")
        results[f"grading_s_per_notebook_{key}"] = per_nb
        results[f"grading_notebooks_per_min_{key}"] = throughput[label]
        print(f"{'grading, per notebook (' + label + ')':42s} {per_nb:9.2f} {per_nb / floor:8.2f}"
              f"   {throughput[label]:.1f} notebooks/min over {count}")
    speedup = throughput["sandbox, --jobs 2"] / throughput["sandbox"]
    results["grading_jobs2_speedup"] = speedup
    print(f"{'grading, --jobs 2 vs serial throughput':42s} {speedup:9.2f}x")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (the median is reported)")
    parser.add_argument("--students", type=int, default=4, help="reference copies per chapter to grade")
    parser.add_argument("--chapters", nargs="*", default=notebook_run.chapters())
    args = parser.parse_args(argv)

    results, failures = {}, []
    with tempfile.TemporaryDirectory(prefix="fbf-bench-") as scratch:
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
                if profile == "cpu" and seconds > CPU_GOAL_S:
                    failures.append(f"{chapter} cpu profile {seconds:.1f} s > {CPU_GOAL_S:.0f} s")
                if profile == "grade" and seconds > GRADE_GOAL_RATIO * floor:
                    failures.append(f"{chapter} grade profile {seconds / floor:.2f}x floor > {GRADE_GOAL_RATIO}x")
        _grading(args.chapters, args.students, scratch, floor, results)

    out = ROOT / "bench-results"
    out.mkdir(exist_ok=True)
    (out / "bench.json").write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    for failure in failures:
        print("GOAL MISSED:", failure)
    print("all goals met" if not failures else f"{len(failures)} goal(s) missed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
