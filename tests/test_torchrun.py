"""The README's torchrun command runs the course's trainer on two processes here (gloo over loopback), and the two
ranks end with identical parameters."""
import re
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SMALL = ["--steps", "4", "--max-bytes", "30000", "--dim", "16", "--layers", "1", "--heads", "2", "--batch-size", "4",
         "--seq-len", "16", "--log-every", "2"]


def readme_torchrun_command() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("torchrun ")]
    assert lines, "README.md shows no `torchrun ...` command line"
    command = shlex.split(lines[0].split("#")[0])
    assert "--nproc-per-node" in command and command[command.index("--nproc-per-node") + 1] == "2"
    assert command[command.index("-m") + 1] == "course.trainer"
    return command


def test_readme_torchrun_command_trains_on_two_processes():
    command = readme_torchrun_command()
    torchrun = str(Path(sys.executable).with_name("torchrun"))
    done = subprocess.run([torchrun, *command[1:], *SMALL], cwd=REPO, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    assert "world_size=2 backend=gloo" in out or "world_size=2 backend=nccl" in out, out
    assert re.search(r"ranks agree: largest parameter difference from rank 0 = 0\.0e\+00", out), out
    assert "held-out loss" in out
