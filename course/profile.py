"""Profiles, device and seeding: how big every experiment is, where it runs, and how it is made repeatable.

`COURSE_PROFILE` picks the size of all experiments:
  grade  tiny sizes for the autograder and CI; always CPU, so grading is deterministic
  cpu    real experiments sized for a 2-core laptop (the default without CUDA)
  gpu    bigger models and batches (the default when CUDA is present)
Experiments never hard-code a size: they ask `sizes(chapter)`.

Threads, decided once for every chapter and profile: importing `course` sets torch to one intra-op thread
(`COURSE_THREADS=N` to choose another number). The course's experiments are many small operations, where a second
thread gains little, and a student's machine always has something else running: with two threads and other work on
a 2-core machine, one run of ch01's learning-rate sweep took anywhere from 1.1 to 38 s, with one thread 1.3-1.5 s
every time. On a GPU the host thread only launches kernels, so one thread costs nothing there either. DDP workers
take their own count (`course.ddp.launch(threads=...)`, one by default).
"""
import os
import random
from types import SimpleNamespace

import numpy as np
import torch

PROFILES = ("grade", "cpu", "gpu")

# chapter -> experiment knob -> (grade, cpu, gpu)
# The experiments of ch01 and ch06, and ch03's but for its throughput sweep and CUDA peak memory (tp_*, peak_batches),
# never move to course.device(): on a GPU machine they run on its CPU, so their gpu sizes are the cpu sizes, held to
# the cpu goal of 60 s on 2 cores (`make bench`), until those experiments move to the device (`python -m
# tools.gpu_estimate` shows what does).
_SIZES = {
    "ch01": {
        "grad_seeds": (2, 10, 10),
        "sweep_steps": (15, 150, 150),
        "sweep_samples": (64, 512, 512),
        "quadratic_dim": (6, 20, 20),
        "quadratic_steps": (150, 200, 200),
        "warmup_steps_total": (40, 300, 300),
        "warmup_samples": (64, 256, 256),
        "warmup_seeds": (2, 5, 5),
        "widget_steps": (20, 40, 40),
    },
    "ch02": {
        "eps_points": (5, 13, 13),
        "adam_steps": (5, 20, 20),
        "quant_points": (101, 451, 451),
        "cost_batch": (32, 256, 1024),
        "cost_widths": ((64, 128), (256, 512, 1024), (1024, 2048, 4096)),
        "cost_repeats": (3, 10, 15),
        "tf32_size": (256, 1024, 4096),
        "tf32_repeats": (3, 7, 7),
    },
    "ch03": {
        "noise_n": (256, 1024, 1024),
        "noise_dim": (8, 16, 16),
        "noise_width": (16, 64, 64),
        "loop_n": (16, 64, 64),
        "noise_batches": ((1, 2, 4, 8, 16), (1, 2, 4, 8, 16, 32, 64), (1, 2, 4, 8, 16, 32, 64)),
        "noise_draws": (64, 200, 200),
        "fpc_draws": (16, 20, 20),
        "run_checkpoints": ((0, 10, 30), (0, 30, 100, 300, 1000), (0, 30, 100, 300, 1000)),
        "run_batch": (16, 32, 32),
        "run_lr": (0.1, 0.1, 0.1),
        "dp_batch": (4, 8, 8),
        "dp_workers": (4, 32, 32),
        "dp_draws": (2, 16, 16),
        "knee_n": (512, 2048, 2048),
        "knee_dim": (8, 16, 16),
        "knee_excess": (0.05, 0.05, 0.05),
        "knee_batches": (tuple(2**k for k in range(9)), tuple(2**k for k in range(11)), tuple(2**k for k in range(11))),
        "knee_lrs": (20, 100, 100),
        "knee_max_steps": (800, 4000, 4000),
        "knee_seeds": (16, 256, 256),
        "hess_condition": (100, 100, 100),
        "hess_gd_steps": ((0, 1, 10, 100), (0, 1, 10, 100), (0, 1, 10, 100)),
        "race_n": (256, 2048, 2048),
        "race_steps": (8, 100, 100),
        "race_lr": (0.05, 0.05, 0.05),
        "mem_vocab": (32, 128, 128),
        "mem_dim": (16, 64, 64),
        "mem_layers": (2, 4, 4),
        "mem_heads": (2, 4, 4),
        "mem_seq": (8, 64, 64),
        "mem_batches": ((1, 2, 4), (1, 2, 4, 8, 16, 32), (1, 2, 4, 8, 16, 32)),
        "depths": ((1, 2, 4), (1, 2, 4, 8, 16), (1, 2, 4, 8, 16)),
        "tp_vocab": (32, 128, 256),
        "tp_dim": (16, 64, 128),
        "tp_layers": (1, 4, 4),
        "tp_heads": (2, 4, 4),
        "tp_seq": (8, 64, 128),
        "tp_batches": ((1, 2, 4), tuple(2**k for k in range(7)), tuple(2**k for k in range(13))),
        "tp_repeats": (1, 7, 7),
        "peak_batches": ((2, 4), (8, 32), (64, 256, 1024, 4096)),
        "acc_batch": (5, 10, 10),
        "acc_micro": (2, 3, 3),
        "ckpt_batch": (2, 8, 8),
        "ckpt_repeats": (1, 7, 7),
        "slider_steps": (20, 60, 60),
        "slider_budget_mib": (1, 64, 64),
    },
    "ch04": {
        "dec_vocab": (32, 128, 256),
        "dec_dim": (16, 64, 128),
        "dec_layers": (2, 4, 6),
        "dec_heads": (2, 4, 4),
        "dec_seq": (8, 32, 64),
        "dec_batch": (4, 16, 32),
        "train_steps": (4, 60, 200),
        "ladder_depth": (10, 16, 18),
        "hvp_hidden": (3, 8, 16),
        "power_iters": (20, 50, 100),
        "compile": (False, True, True),
        "device_steps": (2, 4, 10),
        "device_repeats": (1, 7, 7),
        "device_compile": (False, False, True),
    },
    # ch05's DDP workers compute on the CPU with gloo in every profile (CUDA or not), and so do two one-step cells:
    # its gpu model shapes are its cpu shapes. On a GPU, where a step of this model is launch-bound, it trains on a
    # larger batch (about the same step time), on more text, evaluates on more windows, and its section 7 sweeps
    # the batch until the device is busy. On a CPU, section 7 runs at most the cpu sweep in every profile.
    "ch05": {
        "text_bytes": (30_000, 400_000, 2_000_000),
        "seq_len": (32, 64, 64),
        "batch": (8, 16, 64),
        "dim": (32, 64, 64),
        "layers": (1, 2, 2),
        "heads": (2, 4, 4),
        "train_steps": (12, 200, 300),
        "accum_steps": (2, 2, 2),
        "lr": (3e-3, 3e-3, 3e-3),
        "amp_batch": (4, 16, 32),
        "comm_micro_batches": ((2, 8), (2, 8, 32), (2, 8, 32)),
        "comm_repeats": (1, 7, 7),
        "eval_windows": (32, 400, 2000),
        "device_batches": ((2, 8), (4, 16, 64), (16, 64, 256, 1024, 2048)),
        "device_steps": (1, 2, 5),
        "device_repeats": (1, 7, 7),
        "sync_steps": (3, 30, 30),
    },
    "ch06": {
        "dec_vocab": (16, 32, 32),
        "dec_dim": (16, 32, 32),
        "dec_layers": (1, 2, 2),
        "dec_heads": (2, 4, 4),
        "seq_len": (8, 16, 16),
        "batch": (4, 8, 8),
        "bytes_batches": ((1, 2, 4, 8), (1, 2, 4, 8, 16, 32), (1, 2, 4, 8, 16, 32)),
        "overfit_steps": (40, 150, 150),
        "myth_widths": ((16, 64), (16, 64, 256), (16, 64, 256)),
    },
}


def threads() -> int:
    """torch's intra-op thread count under the course's policy: `COURSE_THREADS` if set, else 1."""
    value = os.environ.get("COURSE_THREADS", "").strip()
    if not value:
        return 1
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"COURSE_THREADS={value!r}: expected a whole number of threads, at least 1")
    return int(value)


def apply_thread_policy() -> None:
    """Sets torch's intra-op threads to `threads()` (done once, by `import course`)."""
    torch.set_num_threads(threads())


def profile() -> str:
    """The active profile: `COURSE_PROFILE` if set, else `gpu` when CUDA is present, else `cpu`."""
    name = os.environ.get("COURSE_PROFILE", "").strip().lower()
    if not name:
        return "gpu" if torch.cuda.is_available() else "cpu"
    if name not in PROFILES:
        raise ValueError(f"COURSE_PROFILE={name!r}: expected one of {', '.join(PROFILES)}")
    return name


def device() -> torch.device:
    """CUDA when present, except in the grade profile, which always grades on the CPU."""
    if profile() != "grade" and torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


def sizes(chapter: str) -> SimpleNamespace:
    """The experiment sizes of `chapter` (e.g. "ch01") in the active profile, as attributes."""
    if chapter not in _SIZES:
        raise KeyError(f"no sizes for chapter {chapter!r}; known: {', '.join(sorted(_SIZES))}")
    column = PROFILES.index(profile())
    return SimpleNamespace(**{knob: values[column] for knob, values in _SIZES[chapter].items()})


def seed_everything(seed: int) -> torch.Generator:
    """Seeds Python, NumPy and torch (CPU and CUDA); returns a CPU generator seeded the same way."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    return torch.Generator().manual_seed(seed)


def describe() -> str:
    """One line for the top of every chapter: which profile, device and torch this run uses."""
    dev = device()
    where = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "CPU"
    return f"profile={profile()}  device={dev} ({where})  threads={torch.get_num_threads()}  torch={torch.__version__}"
