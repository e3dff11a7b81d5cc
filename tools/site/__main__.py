"""`make site`: python -m tools.site [--profile cpu] [--out build/site] [CHAPTER ...]

Executes every chapter that changed since the last build (in the cpu profile, the one the chapters' prose
describes), then renders the site into build/site/ (entry: index.html).
"""
import argparse
import sys
import time
from pathlib import Path

from tools import notebook_run

from .build import build_site
from .config import SiteError
from .execution import ExecutionCache

BUILD = notebook_run.ROOT / "build"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.site", description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", metavar="CHAPTER", help="chapters under source/ (default: all)")
    parser.add_argument("--profile", default="cpu", help="the profile the chapters run in (default: cpu)")
    parser.add_argument("--out", type=Path, default=BUILD / "site", help="the site's folder (default: build/site)")
    parser.add_argument("--cache", type=Path, default=BUILD / "site-cache",
                        help="executed chapters and MathJax (default: build/site-cache)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.chapters) - set(notebook_run.chapters()))
    if unknown:
        parser.error(f"no such chapter: {', '.join(unknown)}")
    start = time.perf_counter()
    try:
        executed = ExecutionCache(args.cache / "executed", args.profile)
        built = build_site(args.out, BUILD / f"site-work-{args.profile}", args.cache, args.profile, executed,
                           args.chapters or None)
    except SiteError as error:
        print(f"site: {error}", file=sys.stderr)
        return 1
    print(f"site: {built.out / 'index.html'} ({len(built.chapters)} chapters) in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
