"""`make claims`: run the chapters in the profile their prose describes and check every claim they make.

Each chapter's source notebook (the reference solutions) runs with `COURSE_CLAIMS_LOG` set, so every
`course.claims.claim(...)` appends its verdict to a file; this prints one line per claim, then
`<chapter>: <N> claims, <K> held`, and exits 1 if a claim failed or a chapter did not run clean (an error or a
write to stderr in any cell: a chapter that stops half-way has not shown its claims). Each executed chapter is
kept, outputs and all, in build/claims/<profile>/<chapter>.ipynb: the prose beside the numbers it was checked with.

    python -m tools.claims                              # every chapter, cpu profile
    python -m tools.claims ch03_minibatches ch05_training_step
"""
import argparse
import json
import sys
import tempfile
from pathlib import Path

import nbformat

from course.claims import LOG_VARIABLE
from tools import notebook_run


KEPT = notebook_run.ROOT / "build" / "claims"


def run_chapter(chapter, profile):
    """Executes `chapter` in `profile` and keeps it under KEPT; returns (claim records, [(cell, kind, text)]
    problems other than failed claims, seconds)."""
    with tempfile.TemporaryDirectory(prefix="fbf-claims-") as scratch:
        log = Path(scratch) / "claims.jsonl"
        env = notebook_run.kernel_env(profile, scratch)
        env[LOG_VARIABLE] = str(log)
        nb, seconds = notebook_run.execute(notebook_run.source_notebook(chapter), profile, env=env)
        records = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    (KEPT / profile).mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, KEPT / profile / f"{chapter}.ipynb")
    trouble = [p for p in notebook_run.problems(nb) if not p[2].startswith("ClaimFailed")]
    return records, trouble, seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="chapter folders under source/ (default: all)")
    parser.add_argument("--profile", default="cpu", help="the profile to run in (default: cpu)")
    args = parser.parse_args(argv)
    chapters = args.chapters or notebook_run.chapters()
    unknown = sorted(set(chapters) - set(notebook_run.chapters()))
    if unknown:
        parser.error(f"no such chapter: {', '.join(unknown)} (known: {', '.join(notebook_run.chapters())})")
    summary, ok = [], True
    for chapter in chapters:
        records, trouble, seconds = run_chapter(chapter, args.profile)
        checked = [r for r in records if r["checked"]]
        held = sum(r["held"] for r in checked)
        print(f"== {chapter} ({args.profile} profile, {seconds:.0f} s)", flush=True)
        for r in records:
            verdict = ("held" if r["held"] else "FAILED") if r["checked"] else "not checked"
            print(f"  {verdict:11s} {r['statement']} (measured {r['measured']}; expected {r['expected']})")
        for cell, kind, text in trouble:
            print(f"  did not run clean: cell {cell}: {kind}: {text.strip().splitlines()[-1][:200]}")
        line = f"{chapter}: {len(checked)} claims, {held} held"
        if trouble:
            line += f" (and {len(trouble)} cell(s) with an error or stderr)"
        print(line, flush=True)
        summary.append(line)
        ok = ok and held == len(checked) and not trouble
    print("\n".join(["", *summary]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
