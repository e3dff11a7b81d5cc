"""The T4 estimate's counting: every aten operation counted, a known matmul's FLOPs exact, what descends from
`.to(course.device())` counted as device work, the counts read back from a notebook kernel, and the arithmetic."""
import copy
import importlib

import nbformat
import pytest
import torch

from tools import gpu_estimate, notebook_run


def test_a_matmul_is_one_host_kernel_with_exact_flops():
    a, b = torch.ones(8, 16), torch.ones(16, 32)
    with gpu_estimate.OpCounter() as counter:
        a @ b
    host, device = counter.counts()["host"], counter.counts()["device"]
    assert (host["kernels"], host["flops"]) == (1, 2 * 8 * 16 * 32)
    assert host["bytes"] == 4 * (8 * 16 + 16 * 32 + 8 * 32)
    assert device == gpu_estimate.asdict(gpu_estimate.Tally())


def test_what_descends_from_a_marked_tensor_is_device_work_and_views_launch_nothing():
    counter = gpu_estimate.OpCounter()
    x, w = torch.ones(4, 8), torch.ones(8, 8)
    counter.mark(w)
    with counter:
        y = (x @ w).t()  # a kernel on the device, then a view of its result
        y.sum()  # on the device: y descends from w
        x.sum()  # x was never marked: host
    device, host = counter.counts()["device"], counter.counts()["host"]
    assert (device["kernels"], device["views"], device["flops"]) == (2, 1, 2 * 4 * 8 * 8)
    assert (host["kernels"], host["views"]) == (1, 0)


def test_a_notebook_kernel_counts_the_modules_sent_to_course_device(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells.append(nbformat.v4.new_code_cell(
        "import torch, course\nDEVICE = course.device()\nlayer = torch.nn.Linear(16, 4).to(DEVICE)\n"
        "layer(torch.ones(2, 16)).sum().backward()"))
    path = tmp_path / "tiny.ipynb"
    nbformat.write(gpu_estimate.counting_notebook(nb), path)
    ran, _ = notebook_run.execute(path, "gpu", timeout=120)
    assert notebook_run.problems(ran) == []
    device = gpu_estimate.printed_counts(ran)["device"]
    # forward addmm 2*2*16*4; backward: the weight's gradient (mm) again, the input needs none
    assert device["flops"] == 2 * (2 * 2 * 16 * 4)
    assert device["kernels"] > 3 and device["seconds"] > 0
    cells = gpu_estimate.cell_seconds(ran)
    assert len(cells) == 3  # every cell timed: counting, the tiny cell, printing
    # the tiny cell's own device work, found by its source; the counting and printing cells did none
    per_cell = {row["cell"]: row for row in gpu_estimate.cell_estimates(cells, gpu_estimate.printed_counts(ran))}
    tiny = per_cell[ran.cells[1].get("id")]
    assert tiny["device"] == device
    assert [per_cell[c.get("id")]["device"]["kernels"] for c in (ran.cells[0], ran.cells[2])] == [0, 0]
    assert tiny["t4_s"][1] > tiny["t4_s"][0] > 0


def test_the_estimate_replaces_the_device_seconds_by_kernels_flops_and_bytes():
    t4 = {"fp32_flops_per_s": 1e12, "bytes_per_s": 1e11, "kernel_s": (10e-6, 20e-6)}
    counts = {"host": {}, "device": {"kernels": 100_000, "views": 5, "flops": 2e12, "bytes": 1e11, "seconds": 7.0}}
    low, high = gpu_estimate.estimate(10.0, counts, t4)
    assert (low, high) == pytest.approx((3.0 + 1.0 + 2.0 + 1.0, 3.0 + 2.0 + 2.0 + 1.0))


def test_proposed_sizes_replace_only_the_gpu_column(monkeypatch):
    profile = importlib.import_module("course.profile")  # `course.profile` is the function of that name
    monkeypatch.setattr(profile, "_SIZES", copy.deepcopy(profile._SIZES))
    proposed = gpu_estimate.proposed_sizes(["ch01.sweep_steps=150", "ch03.knee_batches=(1, 2)"])
    assert proposed == {"ch01": {"sweep_steps": 150}, "ch03": {"knee_batches": (1, 2)}}
    nb = gpu_estimate.resized_notebook(nbformat.v4.new_notebook(), "ch01_gradient_descent", proposed["ch01"])
    exec(nb.cells[0].source, {})
    assert profile._SIZES["ch01"]["sweep_steps"] == (15, 150, 150)
