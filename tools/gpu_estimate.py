"""`python -m tools.gpu_estimate [chapters]`: how long each chapter's `gpu` profile should take on a Colab T4,
estimated on a machine without a GPU.

Models this small are bound on a GPU by the cost of launching each operation, not by FLOPs. Each chapter's source
notebook runs twice on the CPU in the `gpu` profile: plainly (its wall time), and with a first cell that counts,
for the rest of the kernel's life, every aten operation it dispatches (a TorchDispatchMode) and their FLOPs (the
formulas torch.utils.flop_counter.FlopCounterMode uses). An operation is a *device* operation when one of its
tensors descends from a `.to(DEVICE)` (DEVICE = course.device(), CUDA on Colab); everything else stays on Colab's
CPU as it does here. Then

    T4 seconds = plain seconds - the device operations' seconds on this CPU       (what stays on the CPU)
               + device kernels x per-kernel cost + device FLOPs / sustained FLOP/s + device bytes / bandwidth

The same sum per cell (the counting run records each cell's device work; cells are matched to the plain run's by
source) names the cells that cost most on a T4: where a chapter's sizes are cut. Views (metadata only, no kernel)
pay no per-kernel cost. Worker processes a chapter forks (ch05's DDP) run outside the kernel: their time is in
the plain seconds and counts as CPU time, which it is (they run on the CPU, with gloo).
Prints a table and writes bench-results/gpu-estimate.json.
"""
import argparse
import ast
import json
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

import nbformat
import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves
from torch.utils.flop_counter import flop_registry
from torch.utils.weak import WeakIdKeyDictionary

from tools import notebook_run

ROOT = notebook_run.ROOT
RESULTS = ROOT / "bench-results" / "gpu-estimate.json"
TARGET_S = 60  # issue 12: each chapter in about a minute on a Colab T4
# NVIDIA T4 datasheet: 8.1 TFLOP/s fp32 peak, 320 GB/s GDDR6. Sustained shares are assumptions (a 70 W card
# clocks down under load): half the peak FLOP/s, 70 % of the bandwidth.
T4 = {"fp32_flops_per_s": 8.1e12 * 0.5, "bytes_per_s": 320e9 * 0.7,
      # a CUDA launch plus PyTorch's dispatch to it, per kernel: the range the brief's sources give
      "kernel_s": (10e-6, 20e-6)}
MARKER = "GPU-ESTIMATE-COUNTS "
SHOWN_CELLS = 5  # the slowest cells on a T4 the table names: where to cut a chapter's sizes


@dataclass
class Tally:
    kernels: int = 0  # operations that launch a kernel on a GPU
    views: int = 0  # operations that only make new metadata (no kernel)
    flops: int = 0
    bytes: int = 0  # read and written by the kernels, each tensor once per operation
    seconds: float = 0.0  # spent executing them on this CPU


def _nbytes(tensors):
    return sum(t.numel() * t.element_size() for t in {id(t): t for t in tensors}.values())


class OpCounter(TorchDispatchMode):
    """Counts every aten operation, split into `device` (a tensor of it descends from a marked one) and `host`."""

    def __init__(self):
        super().__init__()
        self.tally = {"host": Tally(), "device": Tally()}
        self.cells = []  # [(cell source, the device work it did)], in execution order, once `per_cell` is on
        self._on_device = WeakIdKeyDictionary()
        self._cell_start = None

    def mark(self, *tensors):
        """Marks tensors as living on the device: what is computed from them runs there too."""
        for t in tensors:
            self._on_device[t] = True

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        inputs = [t for t in tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor)]
        start = time.perf_counter()
        out = func(*args, **kwargs)
        seconds = time.perf_counter() - start
        if any(t.is_meta for t in inputs):  # shapes only (ch03's LLaMA-7B): nothing runs anywhere
            return out
        outputs = [t for t in tree_leaves(out) if isinstance(t, torch.Tensor)]
        on_device = any(t in self._on_device for t in inputs)
        if on_device:
            self.mark(*outputs)
        tally = self.tally["device" if on_device else "host"]
        tally.seconds += seconds
        if func.is_view:
            tally.views += 1
            return out
        tally.kernels += 1
        tally.bytes += _nbytes(inputs + outputs)
        if func._overloadpacket in flop_registry:
            tally.flops += flop_registry[func._overloadpacket](*args, **kwargs, out_val=out)
        return out

    def per_cell(self, shell):
        """Records each later cell's device work (IPython's pre_run_cell / post_run_cell events of `shell`)."""
        def before(info):
            self._cell_start = asdict(self.tally["device"])

        def after(result):
            if self._cell_start is not None:
                now = asdict(self.tally["device"])
                self.cells.append((result.info.raw_cell, {k: now[k] - self._cell_start[k] for k in now}))
            self._cell_start = None

        shell.events.register("pre_run_cell", before)
        shell.events.register("post_run_cell", after)

    def counts(self):
        return {**{side: asdict(t) for side, t in self.tally.items()}, "cells": self.cells}


def start_counting():
    """For the kernel's first cell: count from now on; whatever the notebook sends `.to(course.device())` (a
    tensor or a module's parameters and buffers) is marked as on the device. Returns the counter."""
    import course

    counter = OpCounter()
    # One device object to recognise: on the CPU `.to(DEVICE)` changes nothing, so the call itself is the mark.
    # The chapters ask `course.device()` for it.
    device = course.device()
    course.device = lambda: device
    tensor_to, module_to = torch.Tensor.to, torch.nn.Module.to

    def to_device(args, kwargs):
        return any(a is device for a in (*args, *kwargs.values()))

    def marking_tensor_to(self, *args, **kwargs):
        out = tensor_to(self, *args, **kwargs)
        if to_device(args, kwargs):
            counter.mark(out)
        return out

    def marking_module_to(self, *args, **kwargs):
        out = module_to(self, *args, **kwargs)
        if to_device(args, kwargs):
            counter.mark(*self.parameters(), *self.buffers())
        return out

    torch.Tensor.to, torch.nn.Module.to = marking_tensor_to, marking_module_to
    from IPython import get_ipython

    counter.per_cell(get_ipython())
    counter.__enter__()  # left open: the mode counts every later cell
    return counter


def counting_notebook(nb):
    """`nb` between a first cell that starts counting and a last one that prints the counts."""
    first = (f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
             "from tools.gpu_estimate import start_counting\n_gpu_estimate = start_counting()")
    last = f"import json\nprint({MARKER!r} + json.dumps(_gpu_estimate.counts()))"
    nb.cells = [nbformat.v4.new_code_cell(first)] + nb.cells + [nbformat.v4.new_code_cell(last)]
    return nb


def printed_counts(nb):
    for out in nb.cells[-1].outputs:
        if out.output_type == "stream" and MARKER in out.text:
            return json.loads(out.text.split(MARKER, 1)[1])
    raise RuntimeError(f"the counting notebook printed no counts: {notebook_run.problems(nb)[:3]}")


def resized_notebook(nb, chapter, gpu_sizes):
    """`nb` with a first cell that sets `gpu_sizes` ({knob: value}) in the gpu column of `chapter`'s sizes: to
    estimate proposed sizes without editing course/profile.py."""
    if gpu_sizes:
        code = "from course.profile import _SIZES\n" + "".join(
            f"_SIZES[{chapter[:4]!r}][{knob!r}] = (*_SIZES[{chapter[:4]!r}][{knob!r}][:2], {value!r})\n"
            for knob, value in gpu_sizes.items())
        nb.cells.insert(0, nbformat.v4.new_code_cell(code))
    return nb


def cell_seconds(nb):
    """[(cell name, source, seconds)] of every timed code cell of an executed notebook, in order."""
    cells = []
    for cell in nb.cells:
        times = cell.metadata.get("execution", {})
        if "iopub.execute_input" in times and "shell.execute_reply" in times:
            start, end = (datetime.fromisoformat(times[k].replace("Z", "+00:00"))
                          for k in ("iopub.execute_input", "shell.execute_reply"))
            name = cell.metadata.get("nbgrader", {}).get("grade_id", cell.get("id"))
            cells.append((name, cell.source, (end - start).total_seconds()))
    return cells


def cell_estimates(cells, counts, t4=T4):
    """[{cell, here_s, device, t4_s}] for the timed cells of the plain run (`cell_seconds`), each given the device work
    the counting run recorded for the same source (matched in order), slowest on a T4 first."""
    recorded = list(counts["cells"])
    rows = []
    for name, source, seconds in cells:
        match = next((i for i, (s, _) in enumerate(recorded) if s == source), None)
        device = asdict(Tally())
        if match is not None:
            device = recorded[match][1]
            del recorded[:match + 1]  # cells run in order: the match and what came before it are behind us
        rows.append({"cell": name, "here_s": seconds, "device": device,
                     "t4_s": estimate(seconds, {"device": device}, t4)})
    return sorted(rows, key=lambda r: -r["t4_s"][1])


def measure(chapter, scratch, timeout, gpu_sizes=None):
    """(plain seconds, the plain run's `cell_seconds`, counts) of `chapter`'s source notebook in the gpu profile on
    this machine."""
    def run(counting):
        nb = resized_notebook(nbformat.read(notebook_run.source_notebook(chapter), as_version=4), chapter, gpu_sizes)
        path = Path(scratch) / f"{'counting' if counting else 'plain'}-{chapter}.ipynb"
        nbformat.write(counting_notebook(nb) if counting else nb, path)
        return notebook_run.execute(path, "gpu", timeout=timeout)

    nb, plain_s = run(counting=False)
    if notebook_run.problems(nb):
        raise RuntimeError(f"{chapter} [gpu profile] did not run clean: {notebook_run.problems(nb)[:3]}")
    cells = cell_seconds(nb)
    nb, _ = run(counting=True)
    return plain_s, cells, printed_counts(nb)


def estimate(plain_s, counts, t4=T4):
    """T4 seconds (low, high per-kernel cost) from the plain time on this CPU and the counts."""
    dev = counts["device"]
    on_cpu = max(0.0, plain_s - dev["seconds"])
    work = dev["flops"] / t4["fp32_flops_per_s"] + dev["bytes"] / t4["bytes_per_s"]
    return tuple(on_cpu + dev["kernels"] * k + work for k in t4["kernel_s"])


def table(rows):
    lines = [f"T4 model: per kernel {T4['kernel_s'][0] * 1e6:.0f}-{T4['kernel_s'][1] * 1e6:.0f} us, "
             f"{T4['fp32_flops_per_s'] / 1e12:.2f} TFLOP/s fp32 sustained, {T4['bytes_per_s'] / 1e9:.0f} GB/s; "
             f"goal about {TARGET_S} s per chapter",
             f"{'chapter':26s} {'cpu here s':>10s} {'host ops':>9s} {'dev kernels':>11s} {'dev views':>9s} "
             f"{'dev GFLOP':>9s} {'dev GB':>7s} {'dev s here':>10s} {'T4 est. s':>11s}"]
    for r in rows:
        h, d = r["counts"]["host"], r["counts"]["device"]
        lines.append(f"{r['chapter']:26s} {r['plain_s']:10.1f} {h['kernels'] + h['views']:9d} {d['kernels']:11d} "
                     f"{d['views']:9d} {d['flops'] / 1e9:9.2f} {d['bytes'] / 1e9:7.2f} {d['seconds']:10.1f} "
                     f"{r['t4_s'][0]:5.0f}-{r['t4_s'][1]:<5.0f}")
        slowest = r["cells"][:SHOWN_CELLS]
        lines.append(f"{'':26s} slowest on a T4 (here s -> T4 est. s): " + ", ".join(
            f"{c['cell']} {c['here_s']:.0f} -> {c['t4_s'][0]:.0f}-{c['t4_s'][1]:.0f}" for c in slowest))
        if r["gpu_sizes_tried"]:
            lines.append(f"{'':26s} with gpu sizes {r['gpu_sizes_tried']}")
    return "\n".join(lines)


def proposed_sizes(settings):
    """["ch01.sweep_steps=150", ...] -> {"ch01": {"sweep_steps": 150}}; values are Python literals."""
    proposed = {}
    for setting in settings:
        name, value = setting.split("=", 1)
        chapter, knob = name.split(".", 1)
        proposed.setdefault(chapter, {})[knob] = ast.literal_eval(value)
    return proposed


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.gpu_estimate", description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="e.g. ch01 ch03 (default: every chapter)")
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"where the results go (default {RESULTS})")
    parser.add_argument("--set", action="append", default=[], metavar="CHAPTER.KNOB=VALUE",
                        help="try another gpu-column size, e.g. ch01.sweep_steps=150 (repeatable)")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per cell (default 3600)")
    args = parser.parse_args(argv)
    chapters = [c for c in notebook_run.chapters() if not args.chapters or c[:4] in args.chapters]
    proposed = proposed_sizes(args.set)
    rows = []
    args.json.parent.mkdir(parents=True, exist_ok=True)
    for chapter in chapters:
        gpu_sizes = proposed.get(chapter[:4], {})
        with tempfile.TemporaryDirectory(prefix="fbf-gpu-estimate-") as scratch:
            plain_s, cells, counts = measure(chapter, scratch, args.timeout, gpu_sizes)
        totals = {side: counts[side] for side in ("host", "device")}
        rows.append({"chapter": chapter, "gpu_sizes_tried": gpu_sizes, "plain_s": plain_s,
                     "cells": cell_estimates(cells, counts), "counts": totals, "t4_s": estimate(plain_s, totals)})
        print("\n".join(table(rows[-1:]).splitlines()[2:]), flush=True)
        # after every chapter: a chapter's two runs take minutes, an interrupted run keeps what it measured
        args.json.write_text(json.dumps({"torch": torch.__version__, "t4": T4, "chapters": rows}, indent=2))
    print(table(rows))
    print(f"wrote {args.json}")


if __name__ == "__main__":
    sys.exit(main())
