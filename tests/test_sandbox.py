"""The sandbox and the channel: grading stops with a clear message when bubblewrap is missing (unless
--no-sandbox), three runs give byte-identical reports, the notebook wall clock holds, the channel and the
runner refuse what they must, the runner's guard finds and undoes what student code changed, and graders starting
together clear a dead grader's cgroups."""
import os
import shutil
import signal
import subprocess
import sys
import threading

import nbformat
import pytest
from conftest import FIXTURE_COURSE, REPO_ROOT, SMALL_CLASS_CHAPTER, autograder_command

from autograder.catalogue import mutation
from autograder.grading import channel, sandbox
from autograder.reporting.grades import read_rows

FIXTURE = "fx01_basics"


def _fixture_submission(submitted, student, solutions: dict) -> None:
    nb = nbformat.read(FIXTURE_COURSE / "source" / FIXTURE / f"{FIXTURE}.ipynb", as_version=4)
    for cell, source in solutions.items():
        nb = mutation.mutant_notebook(nb, mutation.Mutant(cell, "test", source, frozenset()))
    mutation.write_submission(nb, submitted, student, FIXTURE, FIXTURE)


def test_without_bubblewrap_grading_stops_unless_no_sandbox(tmp_path):
    _fixture_submission(tmp_path / "submitted", "reference", {})
    no_tools = tmp_path / "empty-path"
    no_tools.mkdir()
    env = dict(os.environ, PATH=str(no_tools))
    command = autograder_command(tmp_path / "submitted", tmp_path / "out", "--course-dir", str(FIXTURE_COURSE))
    refused = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, env=env)
    assert refused.returncode == 1
    assert "bubblewrap (bwrap) is not installed" in refused.stderr and "--no-sandbox" in refused.stderr
    assert not (tmp_path / "out" / "grades.csv").exists()
    allowed = subprocess.run(command + ["--no-sandbox"], cwd=REPO_ROOT, capture_output=True, text=True, env=env)
    assert allowed.returncode == 0, allowed.stderr
    assert "WITHOUT a sandbox" in allowed.stdout
    assert [(r["status"], r["score"]) for r in read_rows(tmp_path / "out" / "grades.csv")] == [("graded", "6")]


def test_notebook_wall_clock_stops_a_slow_notebook(tmp_path):
    nap = "import time\ntime.sleep(2.5)\n"
    _fixture_submission(tmp_path / "submitted", "slow", {"square": nap + "def square(x):\n    return x * x\n",
                                                          "mean_of": nap + "def mean_of(xs):\n    return 0\n"})
    command = autograder_command(tmp_path / "submitted", tmp_path / "out", "--course-dir", str(FIXTURE_COURSE),
                                 "--cell-timeout", "5", "--notebook-timeout", "4")
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    [row] = read_rows(tmp_path / "out" / "grades.csv")
    assert (row["status"], row["score"]) == ("timeout", "3"), row
    assert row["detail"].startswith("The notebook ran longer than 4 s in all (stopped in cell 'mean_of')"), row


def test_three_runs_give_byte_identical_reports(small_class, tmp_path):
    """The shared small class, graded once serially, again with --jobs 2 and again serially."""
    submitted, first = small_class
    reports = {((first / "grades.csv").read_bytes(), (first / "cells.csv").read_bytes())}
    for run, jobs in enumerate([("--jobs", "2"), ()]):
        out = tmp_path / f"out{run}"
        done = subprocess.run(autograder_command(submitted, out, "--assignment", SMALL_CLASS_CHAPTER, *jobs),
                              cwd=REPO_ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        reports.add(((out / "grades.csv").read_bytes(), (out / "cells.csv").read_bytes()))
    assert len(reports) == 1
    rows = {r["student"]: r for r in read_rows(first / "grades.csv")}
    assert {s: r["score"] for s, r in rows.items()} == {"blank": "0", "reference": "18", "wrong-std": "15",
                                                        "wrong-sweep": "15"}


def test_channel_accepts_only_the_next_line_signed_with_the_key():
    key = channel.new_key()
    read, write = os.pipe()
    send, encode = channel.sender(write, key), channel.encoder()
    for body in ({"type": "ready"}, {"type": "result", "index": 3}, {"type": "finished"}):
        send(encode(body))
    os.close(write)
    lines = channel.LineReader().feed(os.read(read, 65536))
    os.close(read)
    verifier = channel.Verifier(key)
    assert verifier.check(lines[0]) == {"type": "ready"}
    forged = lines[1].replace(b'"index":3', b'"index":4')
    for line in (lines[0], lines[2], forged, b"garbage", b"1 abc {}"):  # replayed, skipped ahead, forged, junk
        with pytest.raises(channel.ChannelError):
            verifier.check(line)
    assert [verifier.check(line)["type"] for line in lines[1:]] == ["result", "finished"]
    with pytest.raises(channel.ChannelError, match="bad MAC"):
        channel.Verifier(channel.new_key()).check(lines[0])
    with pytest.raises(channel.ChannelError):
        channel.LineReader().feed(b"x" * (channel.MAX_LINE + 1))


# Where the runner and the modules it imports beside it (channel, behaviour) live, as the sandbox puts them together.
RUNNER_PATH = list(dict.fromkeys(str(path.parent) for path in sandbox.RUNNER_FILES.values()))


def test_runner_refuses_to_kill_processes_outside_a_sandbox():
    """The runner's reaper kills every process it may signal: only ever inside bwrap's pid namespace."""
    code = (f"import sys; sys.path[:0] = {RUNNER_PATH!r}; import runner\n"
            "try:\n    runner._reaper()\nexcept RuntimeError as error:\n    print(error)")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.stdout.strip() == "asked to reap processes outside a sandbox", done.stderr


REAPER_CHECK = f"import sys\nsys.path[:0] = {RUNNER_PATH!r}\n" + '''import os, signal, time
import runner

def child(body):
    pid = os.fork()
    if pid == 0:
        body()
        os._exit(0)
    return pid

def spin():
    while True:
        pass

def stop_then_spin():
    os.kill(os.getpid(), signal.SIGSTOP)
    spin()

def fork_forever():  # one parent forking sleepers as fast as it can
    while True:
        try:
            if os.fork() == 0:
                time.sleep(100)
                os._exit(0)
        except OSError:
            pass

def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:  # gone: no such file, or (ESRCH) gone while its stat was read
        return False

def ends(pid):  # a killed process takes a moment to end
    deadline = time.monotonic() + 5
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    return not running(pid)

reap = runner._reaper()
stopped, spinning = child(stop_then_spin), child(spin)
while not open(f"/proc/{stopped}/stat").read().rsplit(")", 1)[1].startswith(" T"):
    time.sleep(0.01)
reap()
spinning_ended = ends(spinning)
time.sleep(0.2)  # long enough for a killed process to end
print("after a cell, stopped:", running(stopped), "spinning:", not spinning_ended)
os.kill(stopped, signal.SIGCONT)
reap()
print("resumed, after the next cell:", not ends(stopped))
child(fork_forever)
time.sleep(0.2)
reap()
left = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, os.getpid()) and not ends(p)]
print("processes left after a fork bomb:", left)
'''


def test_the_reaper_spares_only_stopped_processes():
    """After each cell the runner kills every process a cell left running; one stopped by SIGSTOP (every thread)
    runs nothing and is spared (course.fresh_process keeps its interpreter so between calls), until it is
    resumed; a fork bomb goes whole."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        pytest.skip("bubblewrap is not installed")
    done = subprocess.run([bwrap, "--unshare-pid", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc",
                           "--dev", "/dev", sys.executable, "-c", REAPER_CHECK],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == ["after a cell, stopped: True spinning: False",
                                        "resumed, after the next cell: False",
                                        "processes left after a fork bomb: []"], done.stdout + done.stderr


GUARD_CHECK = f"import sys, types\nsys.path[:0] = {RUNNER_PATH!r}\n" + '''import torch, course.testing
import runner
extra = types.ModuleType("extra")
changes = runner.make_guard({"<extra>": extra})
print(changes())
allclose, names = torch.allclose, list(vars(torch.Tensor))
torch.allclose = lambda *args, **kwargs: True
relu = torch.nn.functional.relu
del torch.nn.functional.relu
torch.Tensor.new_method = lambda self: 1
extra.added = len
numpy = sys.modules["numpy"]
sys.modules["numpy"] = extra
print(sorted(changes()))
print(torch.allclose is allclose, torch.nn.functional.relu is relu, list(vars(torch.Tensor)) == names,
      vars(extra).get("added"), sys.modules["numpy"] is numpy)
print(changes())
'''


def test_guard_finds_and_undoes_every_kind_of_change():
    """The runner's guard, whose quick all-unchanged check skips the detailed search: a replaced and a deleted
    module function, an attribute added to a class and to a strict module, and a replaced sys.modules entry are
    each reported and put back, and nothing is reported when nothing changed."""
    done = subprocess.run([sys.executable, "-c", GUARD_CHECK], cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.stdout.splitlines() == [
        "[]",
        "['<extra>.added (added)', \"sys.modules['numpy']\", 'torch.Tensor.new_method (added)', 'torch.allclose', "
        "'torch.nn.functional.relu']",
        "True True True None True",
        "[]",
    ], done.stdout + done.stderr


def _group_with_a_sleeper(name: str) -> subprocess.Popen:
    """A batch group in each controller, as a grader leaves it: a notebook's sub-group with a process inside."""
    sleeper = subprocess.Popen(["sleep", "300"])
    for controller in sandbox.CONTROLLERS:
        notebook = sandbox.CGROUP_ROOT / controller / name / "nb-0"
        notebook.mkdir(parents=True)
        (notebook / "cgroup.procs").write_text(str(sleeper.pid))
    return sleeper


def test_graders_starting_together_clear_a_dead_graders_groups_and_spare_another_namespaces(tmp_path):
    """Graders that start at once (a class split over --jobs, or CI's runs side by side) all clear the groups a
    dead grader left, without tripping over one another; the groups of a grader in another pid namespace (another
    container on this kernel), whose pid means nothing here, are left alone."""
    if sandbox._cgroups_problem():
        pytest.skip(sandbox._cgroups_problem())
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead = f"autograder-{sandbox.PID_NAMESPACE}-{gone.pid}"
    elsewhere = f"autograder-{sandbox.PID_NAMESPACE + 1}-{gone.pid}"
    sandboxes = [sandbox.Sandbox(False, sandbox.Limits(10, 10), tmp_path, {}) for _ in range(4)]
    foreign = _group_with_a_sleeper(elsewhere)
    try:
        for _ in range(5):  # the race is between listing a group's folders and another grader removing them
            sleeper = _group_with_a_sleeper(dead)
            start = threading.Barrier(len(sandboxes))
            errors = []

            def preflight(box):
                start.wait()
                try:
                    box.preflight(tmp_path)
                except Exception as error:  # noqa: BLE001 - the assertion below names it
                    errors.append(repr(error))

            threads = [threading.Thread(target=preflight, args=(box,)) for box in sandboxes]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert errors == []
            assert sleeper.wait(timeout=10) == -signal.SIGKILL
            assert not any((sandbox.CGROUP_ROOT / c / dead).exists() for c in sandbox.CONTROLLERS)
        assert foreign.poll() is None
        assert all((sandbox.CGROUP_ROOT / c / elsewhere / "nb-0").is_dir() for c in sandbox.CONTROLLERS)
    finally:
        for controller in sandbox.CONTROLLERS:
            sandbox._kill_group(sandbox.CGROUP_ROOT / controller / elsewhere)
        sandboxes[0].close()
        foreign.wait()
