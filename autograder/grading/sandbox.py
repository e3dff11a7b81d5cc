"""Where student code runs: a bubblewrap jail inside per-notebook cgroups, and how it is taken down.

The jail (bwrap, as root, without a user namespace):
  * new pid, network, IPC and UTS namespaces; no network but a loopback of its own (bubblewrap brings `lo` up:
    ch05's two DDP workers talk over it, and nothing outside the namespace is reachable);
  * a file system of its own: /usr, the Python install, the venv and the `course` package, all read-only at their
    real paths (the repository itself, `source/`, gradebooks and other students' folders are not there); the
    runner's files (RUNNER_FILES) and the student's data files read-only under /grader; /tmp a size-capped tmpfs that
    holds the working folder and $HOME; fresh /proc and /dev;
  * the runner runs as uid/gid 65534 with no capabilities and no_new_privs (setpriv), in a new session;
  * --die-with-parent: if the grader dies, so does the jail. When the jail's pid 1 ends, the kernel kills every
    process left in its pid namespace, setsid() children included.
cgroups (v1): a memory cap (tmpfs pages count too, which bounds a disk fill) and a process cap; after the run,
every process still in them is killed and the groups are removed. The runner itself sets its CPU and file size
rlimits (a memory rlimit would break `import torch`).

With `--no-sandbox` the same runner (its files copied side by side into the scratch folder) runs as a plain child
process in a new session, under the cgroups when they are available (root), else with only its rlimits: for
machines without bubblewrap, never for strangers' code.
"""
import itertools
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from ..invocation import option

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids")
# Graders in other containers on this kernel share the cgroup folders: batch groups carry the namespace of their pid,
# and a grader judges by pid only the groups of its own namespace (a pid of another means nothing here).
PID_NAMESPACE = os.stat("/proc/self/ns/pid").st_ino
BATCH_PREFIX = f"autograder-{PID_NAMESPACE}-"
NOBODY = "65534"
GRADER_DIR = "/grader"  # in the jail: the runner's files, the data files, the $HOME seed
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "nsswitch.conf", "passwd", "group", "localtime")
HERE = Path(__file__).resolve().parent
# The grader's files the runner sees, by name: itself, the signed channel, and the catalogue's diagnosis.
RUNNER_FILES = {"runner.py": HERE / "runner.py", "channel.py": HERE / "channel.py",
                "behaviour.py": HERE.parent / "catalogue" / "behaviour.py"}
# Joins the cgroups given as arguments, then becomes the command after them: nothing it starts escapes them.
JOIN_CGROUPS = 'for g in "$@"; do [ "$g" = -- ] && break; echo $$ > "$g/cgroup.procs" || exit 125; done; ' \
               'while [ "$1" != -- ]; do shift; done; shift; exec "$@"'


class SandboxError(RuntimeError):
    """The jail cannot be set up on this machine: grading must not go on without --no-sandbox."""


@dataclass(frozen=True)
class Limits:
    cell_timeout: float  # seconds per cell
    notebook_timeout: float  # seconds of wall clock per notebook, and of CPU time
    # Seconds a notebook's diagnosis may take after its last cell (0: none), never more than a cell's timeout: the
    # grader waits that long for it.
    diagnosis_seconds: float = 20.0
    memory_bytes: int = 3 * 2**30
    processes: int = 256  # threads count too: torch starts a few
    tmp_bytes: int = 1 * 2**30  # /tmp in the jail: working folder and $HOME
    file_bytes: int = 512 * 2**20  # largest file the notebook may write

    def rlimits(self) -> dict:
        return {"RLIMIT_CPU": int(self.notebook_timeout), "RLIMIT_FSIZE": self.file_bytes, "RLIMIT_CORE": 0}


def _cgroups_problem() -> str | None:
    for controller in CONTROLLERS:
        folder = CGROUP_ROOT / controller
        if not (folder / "cgroup.procs").is_file():
            return f"no cgroup v1 {controller} controller at {folder}"
        if not os.access(folder, os.W_OK):
            return f"cannot create cgroups in {folder} (run as root)"
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _group_folders(folder: Path) -> list[Path]:
    """A cgroup folder and its sub-folders, deepest first. Another grader may be removing the same stale group at
    this moment: a folder that vanishes meanwhile is left out (os.walk skips it), never an error."""
    return [Path(top) for top, _, _ in os.walk(folder, topdown=False)]


def _group_pids(folder: Path) -> list[int]:
    pids = []
    for sub in _group_folders(folder):
        try:
            pids += [int(pid) for pid in (sub / "cgroup.procs").read_text().split()]
        except OSError:  # removed meanwhile: gone (ENOENT), or a dead group on its way out (ENODEV)
            pass
    return pids


def _kill_group(folder: Path) -> None:
    """Kills every process in a cgroup folder (and its sub-folders) until none is left, then removes them."""
    for _ in range(200):
        pids = _group_pids(folder)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.02)
    for sub in _group_folders(folder):
        for _ in range(100):  # a memory group is busy for a moment after its last process exits
            try:
                sub.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.02)


def _python_binds() -> list[Path]:
    """Folders the runner's interpreter needs, outside /usr: the venv, the Python install, the course package."""
    paths = [Path(sys.prefix), Path(os.path.realpath(sys.base_prefix)), Path(sys.base_prefix)]
    spec = find_spec("course")
    if spec is not None and spec.submodule_search_locations:
        paths += [Path(p) for p in spec.submodule_search_locations]
    kept = []
    for path in sorted(set(paths), key=lambda p: len(p.parts)):
        if path.is_dir() and not str(path).startswith("/usr/") and not any(path.is_relative_to(k) for k in kept):
            kept.append(path)
    return kept


class Jail:
    """One notebook's run: start() the runner, stop() it and everything it started. Paths are as the runner
    sees them."""

    def __init__(self, sandbox: "Sandbox", name: str, scratch: Path):
        self.sandbox, self.scratch = sandbox, scratch
        self.groups = [sandbox.batch_group(c) / name for c in CONTROLLERS] if sandbox.cgroups else []
        self.process: subprocess.Popen | None = None
        if sandbox.isolate:
            self.home, self.workdir, self.tmp = "/tmp/home", "/tmp/work", "/tmp"
            self.data, self.home_seed = f"{GRADER_DIR}/data", f"{GRADER_DIR}/home"
        else:
            self.home, self.workdir, self.tmp = str(scratch / "home"), str(scratch / "work"), str(scratch / "tmp")
            self.data, self.home_seed = str(scratch / "data"), str(sandbox.home_seed)
            os.makedirs(self.tmp, exist_ok=True)
            # The runner's files side by side, as in the jail's /grader: it imports channel and behaviour.
            (scratch / "grader").mkdir(exist_ok=True)
            for name, path in RUNNER_FILES.items():
                shutil.copyfile(path, scratch / "grader" / name)

    def environment(self) -> dict:
        return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": self.home, "TMPDIR": self.tmp, "LANG": "C.UTF-8",
                "MPLCONFIGDIR": f"{self.home}/.matplotlib", **self.sandbox.grading_env}

    def runner(self, *args: str) -> list[str]:
        """The command line that starts the runner, as seen from inside."""
        where = f"{GRADER_DIR}/runner.py" if self.sandbox.isolate else str(self.scratch / "grader" / "runner.py")
        return [sys.executable, "-s", "-B", where, *args]

    def _command(self, program: list[str]) -> list[str]:
        if not self.sandbox.isolate:
            return program
        bwrap = [self.sandbox.bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
                 "--unshare-cgroup-try", "--hostname", "grader", "--die-with-parent", "--new-session",
                 "--ro-bind", "/usr", "/usr"]
        for name in ("bin", "lib", "lib32", "lib64", "libx32", "sbin"):
            path = Path("/") / name
            if path.is_symlink():
                bwrap += ["--symlink", os.readlink(path), str(path)]
            elif path.is_dir():
                bwrap += ["--ro-bind", str(path), str(path)]
        binds = [(f"/etc/{name}", f"/etc/{name}") for name in ETC_FILES if (Path("/etc") / name).exists()]
        binds += [(str(path), str(path)) for path in _python_binds()]
        binds += [(str(path), f"{GRADER_DIR}/{name}") for name, path in RUNNER_FILES.items()]
        binds += [(str(self.scratch / "data"), self.data), (str(self.sandbox.home_seed), self.home_seed)]
        # The scratch /tmp is mounted before the binds: a checkout that lives under /tmp (a CI clone) keeps its
        # venv and course package visible, read-only, on top of it.
        bwrap += ["--size", str(self.sandbox.limits.tmp_bytes), "--perms", "1777", "--tmpfs", "/tmp"]
        # bwrap would make the folders above a mount point private to root (0700): make them readable first.
        parents = sorted({str(parent) for _, dest in binds for parent in Path(dest).parents
                          if str(parent) not in ("/", "/tmp")}, key=lambda p: p.count("/"))
        for parent in parents:
            bwrap += ["--perms", "0755", "--dir", parent]
        for source, dest in binds:
            bwrap += ["--ro-bind", source, dest]
        bwrap += ["--proc", "/proc", "--dev", "/dev", "--chdir", "/tmp", "--"]
        setpriv = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--no-new-privs",
                   "--inh-caps=-all", "--bounding-set=-all", "--"]
        return bwrap + setpriv + program

    def start(self, program: list[str], pass_fds: tuple, output: int) -> subprocess.Popen:
        """Runs `program` (in the jail) with stdout and stderr on `output`."""
        for group in self.groups:
            group.mkdir()
        if self.groups:
            memory, pids = self.groups
            (memory / "memory.limit_in_bytes").write_text(str(self.sandbox.limits.memory_bytes))
            if (memory / "memory.memsw.limit_in_bytes").exists():  # swap would let memory spill past the cap
                (memory / "memory.memsw.limit_in_bytes").write_text(str(self.sandbox.limits.memory_bytes))
            (pids / "pids.max").write_text(str(self.sandbox.limits.processes))
            command = ["/bin/sh", "-c", JOIN_CGROUPS, "sh", *map(str, self.groups), "--",
                       *self._command(program)]
        else:
            command = self._command(program)
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output,
                                        pass_fds=pass_fds, env=self.environment(), cwd=self.scratch,
                                        start_new_session=True)
        return self.process

    def out_of_memory(self) -> bool:
        """Whether the kernel's OOM killer acted in this run's memory cgroup."""
        if not self.groups:
            return False
        try:
            control = (self.groups[0] / "memory.oom_control").read_text()
        except OSError:
            return False
        return any(line.split()[:1] == ["oom_kill"] and int(line.split()[1]) > 0 for line in control.splitlines())

    def stop(self) -> None:
        """Kills the run and everything it started, and removes its cgroups. Safe to call twice."""
        if self.process is not None and self.process.poll() is None:
            try:
                # The whole session: bwrap, or the runner and the children that kept its session.
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.process is not None:
            self.process.wait()
        for group in self.groups:
            if group.exists():
                _kill_group(group)


class Sandbox:
    """The batch's settings for running notebooks; jail() makes one run's Jail."""

    def __init__(self, isolate: bool, limits: Limits, temp: Path, grading_env: dict):
        self.isolate, self.limits, self.grading_env = isolate, limits, grading_env
        self.cancelled = threading.Event()  # set when grading is interrupted: every run stops at once
        self.bwrap = shutil.which("bwrap")
        self.cgroups = _cgroups_problem() is None
        self.home_seed = temp / "home-seed"
        self.home_seed.mkdir(exist_ok=True)
        self._batch = f"{BATCH_PREFIX}{os.getpid()}"
        self._numbers = itertools.count()  # next() on it is atomic: jobs run in threads

    def batch_group(self, controller: str) -> Path:
        return CGROUP_ROOT / controller / self._batch

    def preflight(self, scratch: Path) -> None:
        """Raises SandboxError, saying what is missing, unless a jail starts here; clears groups that dead
        graders left behind."""
        if self.isolate:
            if self.bwrap is None:
                raise SandboxError("bubblewrap (bwrap) is not installed: run `make setup` as root, or `apt-get "
                                   f"install bubblewrap`; or add {option('--no-sandbox')} to grade without isolation")
            problem = _cgroups_problem()
            if problem:
                raise SandboxError(f"{problem}: the sandbox needs cgroup v1 memory and pids controllers; "
                                   f"or add {option('--no-sandbox')} to grade without isolation")
        if not self.cgroups:
            return
        for controller in CONTROLLERS:
            for stale in (CGROUP_ROOT / controller).glob(f"{BATCH_PREFIX}*"):
                pid = stale.name.removeprefix(BATCH_PREFIX)
                if pid.isdigit() and not _alive(int(pid)):
                    _kill_group(stale)
            self.batch_group(controller).mkdir(exist_ok=True)
        if self.isolate:
            (scratch / "data").mkdir(parents=True, exist_ok=True)
            read, write = os.pipe()
            with self.jail(scratch) as jail:
                process = jail.start(["true"], (), write)
                os.close(write)
                said = os.read(read, 4096).decode(errors="replace").strip()
                os.close(read)
                if process.wait() != 0:
                    raise SandboxError(f"bubblewrap cannot start a sandbox here ({said or 'no message'}); "
                                       f"or add {option('--no-sandbox')} to grade without isolation")

    @contextmanager
    def jail(self, scratch: Path):
        jail = Jail(self, f"nb-{next(self._numbers)}", scratch)
        try:
            yield jail
        finally:
            jail.stop()

    def close(self) -> None:
        """Removes the batch's cgroups (each run removed its own)."""
        if self.cgroups:
            for controller in CONTROLLERS:
                group = self.batch_group(controller)
                if group.exists():
                    _kill_group(group)
