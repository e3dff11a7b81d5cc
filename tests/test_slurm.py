"""The README's Slurm example runs as written: a one-node Slurm cluster on this machine (munged, slurmctld and
slurmd on localhost, in a temporary folder) takes the README's `grade.sbatch` array job and the dependent merge
job, with only the paths /srv/frame-by-frame and /shared/ replaced, and the merged grades.csv, cells.csv,
messages.csv and feedback pages are those of one unsharded run over the same class. Every process the test
started is stopped at the end, and none is left.

Slurm's Debian packages come from tools/install-slurm.sh (.ci/run runs it; the test runs it as root when they are
missing). The cluster's configuration leaves processes and cgroups alone (proctrack/linuxproc, task/none, no job
accounting): the grader puts each notebook in cgroup v1 memory and pids groups of its own."""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psutil
import pytest
from conftest import REPO_ROOT
from test_lab import _free_port

README = REPO_ROOT / "README.md"
INSTALLER = REPO_ROOT / "tools" / "install-slurm.sh"
COMMANDS = ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "scontrol", "scancel", "sinfo")
SEARCH_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
# Every process the test starts carries this variable, set to its cluster folder; so do their children.
MARKER = "FBF_SLURM_CLUSTER"
UNFINISHED = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING", "SIGNALING",
              "STAGE_OUT"}
JOBS_TIMEOUT = 480  # seconds for the array and the merge: 1.5 to 5 minutes on 2 shared cores

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root: slurmd runs the jobs as their user, and "
                                                             "the grader's sandbox needs root")


def _missing_commands() -> list[str]:
    return [name for name in COMMANDS if shutil.which(name, path=SEARCH_PATH) is None]


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.M | re.S)


def readme_slurm_example() -> tuple[str, str, str]:
    """(script name, the batch script, the submit lines), as the README shows them."""
    blocks = _code_blocks(README.read_text(encoding="utf-8"))
    scripts = [block for block in blocks if "#SBATCH" in block]
    submits = [block for block in blocks if "sbatch --dependency" in block]
    assert len(scripts) == 1 and len(submits) == 1 and scripts != submits, \
        "README.md should show the #SBATCH script and the lines that submit it in two blocks"
    name = re.search(r"sbatch --parsable ([\w.-]+)", submits[0])
    assert name, "the README's submit block should submit the script with `sbatch --parsable SCRIPT`"
    return name[1], scripts[0], submits[0]


def with_paths(text: str, repo: Path, shared: Path, submitted: Path) -> str:
    """`text` with the README's example paths replaced, and nothing else changed."""
    paths = {"/srv/frame-by-frame": f"{repo}", "/shared/submitted": f"{submitted}", "/shared/": f"{shared}/"}
    return re.sub("|".join(map(re.escape, paths)), lambda found: paths[found[0]], text)


def _run(env: dict, *command: str, **options) -> subprocess.CompletedProcess:
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, **options)


def _jobs(env: dict) -> list[dict[str, str]]:
    """Every job slurmctld knows, finished ones included, as {field: value} (first word of each value)."""
    done = _run(env, "scontrol", "--oneliner", "show", "job")
    return [dict(re.findall(r"(\w+)=(\S*)", line)) for line in done.stdout.splitlines() if "JobId=" in line]


def _tail(path: Path, lines: int = 40) -> str:
    text = path.read_text(errors="replace").splitlines()[-lines:] if path.is_file() else ["(none)"]
    return f"--- {path.name}\n" + "\n".join(text)


class Cluster:
    """A one-node Slurm cluster in `folder`: slurm.conf, munge's key and socket, state, spool and logs."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.conf = folder / "slurm.conf"
        self.env = dict(os.environ, PATH=SEARCH_PATH, SLURM_CONF=str(self.conf), **{MARKER: str(folder)})
        self.daemons: list[subprocess.Popen] = []

    def configure(self) -> None:
        host = socket.gethostname().split(".")[0]
        # The node as slurmd sees it (CPUs, sockets, memory): a node configured bigger than it is is drained.
        node = _run(self.env, "slurmd", "-C").stdout.splitlines()[0]
        assert node.startswith(f"NodeName={host} "), node
        for name in ("munge", "state", "spool", "log"):
            (self.folder / name).mkdir()
        settings = {
            "ClusterName": "fbf", "SlurmctldHost": f"{host}(127.0.0.1)",
            "SlurmctldPort": _free_port(), "SlurmdPort": _free_port(),
            "AuthType": "auth/munge", "CredType": "cred/munge", "AuthInfo": f"socket={self.folder}/munge/socket",
            "SlurmUser": "root", "SlurmdUser": "root",
            "StateSaveLocation": self.folder / "state", "SlurmdSpoolDir": self.folder / "spool",
            "SlurmctldPidFile": self.folder / "slurmctld.pid", "SlurmdPidFile": self.folder / "slurmd.pid",
            "SlurmctldLogFile": self.folder / "log" / "slurmctld.log",
            "SlurmdLogFile": self.folder / "log" / "slurmd.log",
            "PlugStackConfig": self.folder / "plugstack.conf", "MailProg": "/bin/true",
            # No cgroup plugin: Slurm tracks a job's processes by parent, binds no CPU, gathers no accounting.
            "ProctrackType": "proctrack/linuxproc", "TaskPlugin": "task/none",
            "JobAcctGatherType": "jobacct_gather/none", "AccountingStorageType": "accounting_storage/none",
            "SelectType": "select/cons_tres", "SelectTypeParameters": "CR_CPU", "MpiDefault": "none",
            "ReturnToService": 2, "KillWait": 5, "MinJobAge": 3600,
            # A merge whose array failed is cancelled instead of waiting forever.
            "DependencyParameters": "kill_invalid_depend",
        }
        lines = [f"{key}={value}" for key, value in settings.items()]
        lines += [f"{node} NodeAddr=127.0.0.1 State=UNKNOWN",
                  "PartitionName=grading Nodes=ALL Default=YES MaxTime=INFINITE State=UP"]
        self.conf.write_text("\n".join(lines) + "\n")
        (self.folder / "plugstack.conf").write_text("")

    def start(self) -> None:
        munge = self.folder / "munge"
        _run(self.env, "mungekey", "--create", f"--keyfile={munge}/munge.key", check=True)
        self._daemon("munged", "--foreground", f"--key-file={munge}/munge.key", f"--socket={munge}/socket",
                     f"--pid-file={munge}/munged.pid", f"--seed-file={munge}/seed")
        self._wait(lambda: (munge / "socket").exists(), 20, "munged made no socket")
        self._daemon("slurmctld", "-D")
        self._daemon("slurmd", "-D")
        self._wait(lambda: _run(self.env, "sinfo", "--noheader", "--format=%T").stdout.strip() == "idle", 60,
                   "the node never became idle")

    def _daemon(self, *command: str) -> None:
        log = open(self.folder / "log" / f"{command[0]}.out", "wb")
        with log:
            self.daemons.append(subprocess.Popen(command, env=self.env, stdin=subprocess.DEVNULL, stdout=log,
                                                 stderr=subprocess.STDOUT))

    def _wait(self, ready, seconds: float, problem: str) -> None:
        deadline = time.monotonic() + seconds
        while not ready():
            dead = [proc.args[0] for proc in self.daemons if proc.poll() is not None]
            if dead or time.monotonic() > deadline:
                pytest.fail(f"{problem}{f'; {dead} exited' if dead else ''}\n{self.logs()}")
            time.sleep(0.5)

    def wait_for_jobs(self, seconds: float) -> list[dict[str, str]]:
        """The jobs once none is pending or running; fails, with the logs, after `seconds`."""
        jobs: list[dict[str, str]] = []

        def finished() -> bool:
            nonlocal jobs
            jobs = _jobs(self.env)
            return bool(jobs) and not any(job["JobState"] in UNFINISHED for job in jobs)

        self._wait(finished, seconds, f"the jobs did not finish within {seconds} s")
        return jobs

    def logs(self, *outputs: Path) -> str:
        jobs = _run(self.env, "scontrol", "--oneliner", "show", "job").stdout if self.daemons else ""
        parts = [f"--- scontrol show job\n{jobs}"]
        parts += [_tail(path) for path in (*outputs, *sorted((self.folder / "log").glob("*")))]
        return "\n".join(parts)

    def stop(self) -> list[str]:
        """Cancels every job, stops the daemons, kills whatever the test started that is still alive, and
        returns what had to be killed."""
        if self.daemons and all(proc.poll() is None for proc in self.daemons):
            ids = [job["JobId"] for job in _jobs(self.env) if job["JobState"] in UNFINISHED]
            if ids:
                _run(self.env, "scancel", *ids)
                deadline = time.monotonic() + 30
                while any(job["JobState"] in UNFINISHED for job in _jobs(self.env)) and time.monotonic() < deadline:
                    time.sleep(0.5)
        for proc in reversed(self.daemons):  # slurmd, slurmctld, then munged, which both need
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        left = started_by(self.folder)
        for proc in left:
            proc.kill()
        psutil.wait_procs(left, timeout=10)
        return [f"{proc.pid} {' '.join(proc.info['cmdline'] or [])}" for proc in left]


def started_by(folder: Path) -> list[psutil.Process]:
    """Living processes that carry the cluster's marker or name its folder, and their descendants."""
    marked = set()
    for proc in psutil.process_iter(["pid", "environ", "cmdline"]):
        environ, cmdline = proc.info["environ"] or {}, proc.info["cmdline"] or []
        if environ.get(MARKER) == str(folder) or any(str(folder) in part for part in cmdline):
            marked.add(proc)
            try:
                marked.update(proc.children(recursive=True))
            except psutil.NoSuchProcess:
                pass
    for proc in marked:
        proc.info = proc.as_dict(["pid", "cmdline"], ad_value=None)
    return sorted((proc for proc in marked if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE),
                  key=lambda proc: proc.pid)


@pytest.fixture(scope="session")  # session: set up before the class is graded, so a skip costs nothing
def slurm_version() -> str:
    if _missing_commands():
        done = subprocess.run(["bash", str(INSTALLER)], capture_output=True, text=True)
        if _missing_commands():
            pytest.skip(f"Slurm's Debian packages are missing ({', '.join(_missing_commands())}) and "
                        f"tools/install-slurm.sh could not install them: {done.stdout[-500:]}{done.stderr[-500:]}")
    return _run(os.environ, shutil.which("slurmd", path=SEARCH_PATH), "-V").stdout.strip()


@pytest.fixture
def cluster(slurm_version):
    # munged wants every folder above its socket searchable by all: pytest's temporary folders are not.
    folder = Path(tempfile.mkdtemp(prefix="fbf-slurm-"))
    folder.chmod(0o755)
    cluster = Cluster(folder)
    try:
        cluster.configure()
        cluster.start()
        yield cluster
    finally:
        try:
            killed = cluster.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    assert not killed, f"still running after the cluster stopped (killed now): {killed}"
    assert not started_by(folder)


def test_readme_slurm_array_job_merges_to_the_files_of_one_run(slurm_version, cluster, small_class, tmp_path,
                                                               measured):
    submitted, whole = small_class
    safe = re.compile(r"[\w/.+-]+")
    if not all(safe.fullmatch(str(path)) for path in (REPO_ROOT, tmp_path, submitted)):
        pytest.skip("the README's paths are unquoted: this checkout or the temporary folder has a space or a "
                    "shell character in its path")
    name, script, submit = readme_slurm_example()
    shared, folder = tmp_path / "shared", tmp_path / "submit"
    folder.mkdir()
    (folder / name).write_text(with_paths(script, REPO_ROOT, shared, submitted))
    started = time.monotonic()
    done = subprocess.run(["bash", "-e", "-c", with_paths(submit, REPO_ROOT, shared, submitted)], cwd=folder,
                          env=cluster.env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{cluster.logs()}"
    assert {proc.pid for proc in cluster.daemons} <= {proc.pid for proc in started_by(cluster.folder)}
    merge_id = re.fullmatch(r"Submitted batch job (\d+)\n", done.stdout)
    assert merge_id, done.stdout
    jobs = cluster.wait_for_jobs(JOBS_TIMEOUT)
    seconds = time.monotonic() - started
    outputs = sorted(folder.glob("slurm-*.out"))
    states = {(job.get("ArrayTaskId") or "merge", job["JobState"], job["ExitCode"]) for job in jobs}
    tasks = [job for job in jobs if job.get("ArrayTaskId")]
    failed = [job for job in jobs if (job["JobState"], job["ExitCode"]) != ("COMPLETED", "0:0")]
    assert not failed, f"{sorted(states)}\n{cluster.logs(*outputs)}"
    assert {job["JobId"] for job in jobs} - {job["JobId"] for job in tasks} == {merge_id[1]}, states
    assert len(list((shared / "out").glob("shard-*"))) == len(tasks), states
    merged = shared / "grading-out"
    for csv in ("grades.csv", "cells.csv", "messages.csv"):
        assert (merged / csv).read_bytes() == (whole / csv).read_bytes(), f"{csv}\n{cluster.logs(*outputs)}"
    pages = {path.relative_to(whole): path.read_bytes() for path in (whole / "feedback").rglob("*") if path.is_file()}
    assert pages and pages == {path.relative_to(merged): path.read_bytes()
                               for path in (merged / "feedback").rglob("*") if path.is_file()}
    measured(f"{slurm_version}: {len(tasks)} array tasks and the merge, submitted to finished, in {seconds:.0f} s "
             f"on one node of {os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.1f})")
