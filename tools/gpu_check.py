"""`make gpu-check`: one prepared script for a machine with one CUDA GPU, done in under 10 minutes.

On the CPU first (everywhere), the paths the GPU checks take: bf16 autocast agrees with fp32 on the tiny decoder,
fp16 autocast with GradScaler trains, the step-memory count is positive and linear in the batch, and two DDP workers
started after a backward run their own (`course.ddp` forks only without CUDA). Then, with CUDA: every chapter's
source notebook in the `gpu` profile (time, no error, nothing on stderr), and ch05's and ch06's in the `grade`
profile too (their graded DDP cells, as Validate or plain nbgrader runs them on a GPU machine); bf16 autocast and
fp16 autocast with `torch.amp.GradScaler` on the GPU; and one decoder training step's memory, counted (parameters'
gradients + AdamW's two fp32 states + the activations autograd saves, de-duplicated by storage) against
`torch.cuda.max_memory_allocated`, as a ratio.

Each chapter runs with its claims logged (`course.claims`): a chapter passes only if every claim it checks in that
profile held, and the executed notebook is kept under build/claims/<profile>/ as `make claims` keeps it.
The gpu-profile chapters run one after another (they share the one device); the grade-profile runs, which never
use the device, run beside them, one after another on the host's other cores. `--chapters` picks some chapters.
Each check is printed, and the JSON report (bench-results/gpu-check.json) rewritten, as soon as it is done, so a
run stopped half-way still reports what it finished. Exit status: 0 when every check passed, 1 when one failed, 2
when there is no CUDA device (after the CPU checks).
"""
import argparse
import json
import math
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch

from course import ddp, decoder, memory
from tools import claims, notebook_run

RESULTS = notebook_run.ROOT / "bench-results" / "gpu-check.json"
CHAPTER_BUDGET_S = 120  # a chapter should take about a minute on a Colab T4; an H100 or A100 takes less
BF16_TOLERANCE = 0.05  # bf16 keeps 8 bits of mantissa: loss and gradient within a few per cent of fp32
MEMORY_RATIO = (0.9, 1.5)  # measured / counted: temporaries (logits, softmax, matmul workspaces) add to the count
# The decoder and batch the checks use: GPU-sized on CUDA; on the CPU only big enough to exercise the same paths
# (fp16 matmuls are slow there).
SHAPES = {"cuda": (dict(vocab_size=256, dim=256, n_layers=4, n_heads=8), 8, 256),
          "cpu": (dict(vocab_size=64, dim=32, n_layers=2, n_heads=4), 4, 32)}


@dataclass
class Check:
    name: str
    passed: bool
    detail: str
    seconds: float = 0.0
    values: dict = field(default_factory=dict)


def timed(name, fn) -> Check:
    """Runs fn() -> (passed, detail, values) as one check; an exception is a failed check, not a crash."""
    start = time.perf_counter()
    try:
        passed, detail, values = fn()
    except Exception as error:  # report every check, whatever one of them raises
        passed, detail, values = False, f"{type(error).__name__}: {error}"[:300], {}
    return Check(name, passed, detail, time.perf_counter() - start, values)


def _decoder_batch(device, seed=0):
    config, batch, seq = SHAPES[torch.device(device).type]
    model = decoder.seeded_decoder(**config, seed=seed).to(device)
    tokens = decoder.token_batch(batch, seq, config["vocab_size"], seed=seed).to(device)
    return model, tokens


def _rel_error(a: torch.Tensor, b: torch.Tensor) -> float:
    return ((a.double() - b.double()).norm() / b.double().norm()).item()


def autocast_agreement(device, dtype=torch.bfloat16):
    """Relative errors of the loss and of the gradient under autocast(dtype), against fp32."""
    model, tokens = _decoder_batch(device)
    runs = {}
    for label, enabled in (("fp32", False), ("autocast", True)):
        model.zero_grad(set_to_none=True)
        with torch.autocast(device_type=torch.device(device).type, dtype=dtype, enabled=enabled):
            loss = decoder.lm_loss(model(tokens), tokens)
        loss.backward()
        grads = torch.cat([p.grad.flatten().float() for p in model.parameters()])
        runs[label] = (loss.detach().float(), grads)
    loss_err = _rel_error(runs["autocast"][0], runs["fp32"][0])
    grad_err = _rel_error(runs["autocast"][1], runs["fp32"][1])
    passed = loss_err < BF16_TOLERANCE and grad_err < BF16_TOLERANCE
    return passed, f"loss rel. error {loss_err:.2e}, gradient rel. error {grad_err:.2e} (< {BF16_TOLERANCE})", \
        {"loss_rel_error": loss_err, "grad_rel_error": grad_err}


def scaled_fp16_steps(device, steps=3):
    """fp16 autocast with torch.amp.GradScaler: every step's loss finite, and the scale stays a finite power of 2."""
    model, tokens = _decoder_batch(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(torch.device(device).type)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=torch.device(device).type, dtype=torch.float16):
            loss = decoder.lm_loss(model(tokens), tokens)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        losses.append(loss.item())
    scale = scaler.get_scale()
    passed = all(math.isfinite(v) for v in losses) and math.isfinite(scale) and scale > 0
    return passed, f"losses {[round(v, 4) for v in losses]}, scale {scale:g}", {"losses": losses, "scale": scale}


def counted_step_bytes(model, tokens) -> dict[str, int]:
    """What one AdamW training step adds on top of the parameters, counted: gradients, two fp32 states per
    parameter, and the activations autograd saves (each storage once; the parameters themselves excluded)."""
    params = list(model.parameters())
    param_storages = {p.untyped_storage().data_ptr() for p in params}
    saved = {}

    def pack(t):
        storage = t.untyped_storage()
        if storage.data_ptr() not in param_storages:
            saved[storage.data_ptr()] = storage.nbytes()
        return t.detach()

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = decoder.lm_loss(model(tokens), tokens)
    del loss
    return {"gradients": sum(p.numel() * p.element_size() for p in params),
            "adamw_states": sum(2 * p.numel() * 4 for p in params),
            "activations": sum(saved.values())}


def step_memory_ratio(device):
    """Peak CUDA memory of one AdamW step above the parameters, measured / counted."""
    model, tokens = _decoder_batch(device)
    counted = counted_step_bytes(model, tokens)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def step():
        decoder.lm_loss(model(tokens), tokens).backward()
        optimizer.step()

    measured = memory.cuda_peak_step(step, device)
    ratio = measured / sum(counted.values())
    low, high = MEMORY_RATIO
    return low <= ratio <= high, f"measured {measured / 2**20:.1f} MiB / counted {sum(counted.values()) / 2**20:.1f} " \
        f"MiB = {ratio:.2f} (expected {low}-{high})", {"measured": measured, **counted, "ratio": ratio}


def counted_on_cpu():
    """The counting behind the memory check, on the CPU: each part positive, activations linear in the batch."""
    model, tokens = _decoder_batch("cpu")
    half = len(tokens) // 2
    one, two = counted_step_bytes(model, tokens[:half]), counted_step_bytes(model, tokens)
    ratio = two["activations"] / one["activations"]
    passed = all(v > 0 for v in one.values()) and abs(ratio - 2) < 0.02
    return passed, f"activations {one['activations'] / 2**10:.0f} KiB at batch {half}, x{ratio:.3f} at " \
        f"batch {len(tokens)}; gradients {one['gradients'] / 2**10:.0f} KiB", {**one, "batch_ratio": ratio}


def chapter_in_profile(chapter, profile):
    """The chapter's source notebook (the reference solutions) in `profile`: no error, nothing on stderr, every claim
    it checks held, and in the gpu profile within the budget."""
    def run():
        records, trouble, seconds = claims.run_chapter(chapter, profile)
        checked = [r for r in records if r["checked"]]
        failed = [r["statement"] for r in checked if not r["held"]]
        budget = CHAPTER_BUDGET_S if profile == "gpu" else math.inf
        passed = not trouble and not failed and seconds <= budget
        detail = f"{seconds:.1f} s" + (f" (budget {budget} s)" if profile == "gpu" else "") + \
            f"; {len(checked) - len(failed)} of {len(checked)} claims held" + \
            (f"; first failed: {failed[0]}"[:200] if failed else "") + \
            (f"; {len(trouble)} problem(s), first: {trouble[0]}"[:300] if trouble else "")
        return passed, detail, {"seconds": seconds, "problems": len(trouble), "claims": len(checked),
                                "claims_failed": failed}
    return run


def _sum_of_grads(rank, world_size, x):
    model = torch.nn.Linear(x.shape[1], 1)
    with torch.no_grad():
        model.weight.fill_(1.0)
    (model(x).sum() * (rank + 1)).backward()
    grad = model.weight.grad.clone()
    torch.distributed.all_reduce(grad)
    return grad.tolist()


def ddp_after_backward():
    """Two DDP workers started after a backward in this process, as a chapter's cells do: with CUDA visible, a
    forked child could not run its own backward (autograd's device threads), so `course.ddp` must not fork here."""
    torch.nn.Linear(2, 1)(torch.ones(1, 2)).sum().backward()
    x = torch.ones(2, 3)
    results = ddp.launch(_sum_of_grads, x, world_size=2, echo=False)
    passed = results[0] == results[1] == [[6.0, 6.0, 6.0]]
    method = ddp.start_method()
    return passed, f"start method {method}; all-reduced gradient {results[0]}", {"start_method": method}


# Chapters whose graded cells start DDP workers: their reference solutions must earn full marks on a GPU machine too.
GRADE_PROFILE_CHAPTERS = ("ch05_training_step", "ch06_preflight")


def notebook_lanes(chapters) -> list[list[tuple[str, object]]]:
    """Two lanes of (name, check): each chapter in the gpu profile, and ch05's and ch06's in the grade profile (on
    the CPU, so they can run beside the first without touching the device)."""
    return [[(f"{chapter} (gpu profile)", chapter_in_profile(chapter, "gpu")) for chapter in chapters],
            [(f"{chapter} (grade profile)", chapter_in_profile(chapter, "grade"))
             for chapter in GRADE_PROFILE_CHAPTERS if chapter in chapters]]


def run_checks(chapters, done=lambda checks: None) -> tuple[list[Check], bool]:
    """Every check; `done` is given the checks finished so far each time one finishes."""
    checks, lock = [], threading.Lock()

    def record(check):
        with lock:
            checks.append(check)
            done(checks)

    for name, fn in [("bf16 autocast on CPU", lambda: autocast_agreement("cpu")),
                     ("fp16 autocast + GradScaler on CPU", lambda: scaled_fp16_steps("cpu")),
                     ("step memory counted on CPU", counted_on_cpu),
                     ("DDP workers after a backward", ddp_after_backward)]:
        record(timed(name, fn))
    has_cuda = torch.cuda.is_available()
    if has_cuda:
        for name, fn in [("bf16 autocast on CUDA", lambda: autocast_agreement("cuda")),
                         ("fp16 autocast + GradScaler on CUDA", lambda: scaled_fp16_steps("cuda")),
                         ("one step's memory vs max_memory_allocated", lambda: step_memory_ratio("cuda"))]:
            record(timed(name, fn))

        def run_lane(lane):
            for name, fn in lane:
                record(timed(name, fn))

        # Each notebook runs in its own kernel process; the threads only wait on them.
        with ThreadPoolExecutor(max_workers=2) as pool:
            for future in [pool.submit(run_lane, lane) for lane in notebook_lanes(chapters)]:
                future.result()
    return checks, has_cuda


def report_line(check: Check, width: int = 0) -> str:
    return f"{'PASS' if check.passed else 'FAIL'}  {check.name.ljust(width)}  {check.seconds:7.1f} s  {check.detail}"


def heading(has_cuda: bool) -> str:
    where = torch.cuda.get_device_name(0) if has_cuda else "no CUDA device"
    return f"gpu-check on {where}, torch {torch.__version__}"


def report(checks: list[Check], has_cuda: bool) -> str:
    width = max(len(c.name) for c in checks)
    lines = [heading(has_cuda)]
    lines += [report_line(c, width) for c in checks]
    if not has_cuda:
        lines.append("No CUDA device: only the CPU checks ran. Run `make gpu-check` on a machine with a CUDA GPU.")
    return "\n".join(lines)


def write_json(path: Path, checks: list[Check], has_cuda: bool):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cuda": has_cuda, "device": torch.cuda.get_device_name(0) if has_cuda else None,
                                "torch": torch.__version__,
                                "checks": [asdict(c) for c in checks]}, indent=2))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.gpu_check", description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"where the JSON report goes (default {RESULTS})")
    parser.add_argument("--chapters", nargs="+", choices=notebook_run.chapters(), default=notebook_run.chapters(),
                        metavar="CHAPTER", help="chapters to run (default: all)")
    args = parser.parse_args(argv)
    has_cuda = torch.cuda.is_available()
    print(heading(has_cuda), flush=True)

    def done(checks):
        print(report_line(checks[-1]), flush=True)
        write_json(args.json, checks, has_cuda)

    checks, has_cuda = run_checks(args.chapters, done)
    print(report(checks, has_cuda))
    print(f"wrote {args.json}")
    if not has_cuda:
        return 2
    return 0 if all(c.passed for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
