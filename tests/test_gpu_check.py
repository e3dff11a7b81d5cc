"""`make gpu-check` without a GPU: it runs what the CPU can check, says clearly that CUDA is missing, writes its
report, and exits non-zero; a check that raises is reported as failed, never a crash."""
import json
import os
import subprocess
import sys

from conftest import REPO_ROOT

from tools import gpu_check


def test_without_cuda_it_checks_the_cpu_paths_then_exits_non_zero(tmp_path):
    report = tmp_path / "gpu-check.json"
    done = subprocess.run([sys.executable, "-m", "tools.gpu_check", "--json", str(report)], cwd=REPO_ROOT,
                          capture_output=True, text=True, env={**os.environ, "CUDA_VISIBLE_DEVICES": ""})
    assert done.returncode == 2, done.stdout + done.stderr
    assert "No CUDA device: only the CPU checks ran" in done.stdout
    written = json.loads(report.read_text())
    assert written["cuda"] is False
    assert [c["name"] for c in written["checks"]] == ["bf16 autocast on CPU", "fp16 autocast + GradScaler on CPU",
                                                      "step memory counted on CPU", "DDP workers after a backward"]
    assert all(c["passed"] for c in written["checks"]), written["checks"]


def test_a_check_that_raises_is_a_failed_check():
    def broken():
        raise RuntimeError("CUDA out of memory")

    check = gpu_check.timed("broken", broken)
    assert (check.passed, check.detail) == (False, "RuntimeError: CUDA out of memory")
    assert "FAIL  broken" in gpu_check.report([check], has_cuda=False)
