"""The training loop around a training step: progress bar, live loss plot, per-layer gradient norms, and a
command-line trainer that runs on one process or many under `torchrun`.

In the notebook, `train(...)` drives *your* step function:

    history = train(model, loader, optimizer, steps=200, step_fn=train_step, step_kwargs=dict(accum_steps=2, ...))

It shows a `tqdm.auto` progress bar (a widget in Jupyter, text elsewhere) and, in Jupyter, a loss plot redrawn
while it runs; it returns the list of metric dicts your step returned.

From a shell, the same kind of loop on the standard library's text, with DDP when started by torchrun:

    python -m course.trainer --steps 300                                   # one process
    torchrun --standalone --nproc-per-node 2 -m course.trainer --steps 300 # two processes, gloo (NCCL on GPUs)

The command-line trainer uses torch's own AdamW and clip_grad_norm_; it never imports anything from a notebook.
"""
import argparse
import math
import os
import sys
import time

import torch
import torch.nn.functional as F

from .decoder import layer_index, seeded_decoder
from .progress import progress


def in_notebook() -> bool:
    """Whether we run in a Jupyter kernel (where plots can be redrawn in place)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})


class LiveLossPlot:
    """A loss curve redrawn in place in Jupyter every `every` updates; elsewhere it draws nothing until `close()`
    returns the finished figure."""

    def __init__(self, title="training loss", baseline=None, baseline_label="baseline", every=10):
        import matplotlib.pyplot as plt

        self.plt, self.every, self.steps, self.losses = plt, every, [], []
        self.fig, self.ax = plt.subplots(figsize=(6, 3))
        self.ax.set_xlabel("step")
        self.ax.set_ylabel("loss (nats per token)")
        self.ax.set_title(title)
        (self.line,) = self.ax.plot([], [], label="train loss")
        if baseline is not None:
            self.ax.axhline(baseline, color="gray", linestyle="--", linewidth=1, label=baseline_label)
        self.ax.legend(loc="upper right")
        self.handle = None
        self.live = in_notebook()

    def update(self, step, loss, force=False):
        self.steps.append(step)
        self.losses.append(loss)
        if not self.live or not (force or len(self.steps) % self.every == 0):
            return
        self.line.set_data(self.steps, self.losses)
        self.ax.relim()
        self.ax.autoscale_view()
        from IPython.display import display

        if self.handle is None:
            self.handle = display(self.fig, display_id=True)
        else:
            self.handle.update(self.fig)

    def close(self):
        """Draws the final curve (in Jupyter) and releases the figure; returns it."""
        self.line.set_data(self.steps, self.losses)
        self.ax.relim()
        self.ax.autoscale_view()
        if self.live:
            from IPython.display import display

            if self.handle is None:
                display(self.fig)
            else:
                self.handle.update(self.fig)
        self.plt.close(self.fig)
        return self.fig


def layer_group(name: str) -> str:
    """The layer a TinyDecoder parameter belongs to: "embed", "block 0", "block 1", ..., "final norm", "lm_head"."""
    index = layer_index(name)
    if index is not None:
        return f"block {index}"
    return {"embed_tokens": "embed", "norm": "final norm", "lm_head": "lm_head"}.get(name.split(".")[0], name)


class LayerGradNorms:
    """Records, for every step, each layer's gradient norm as the backward pass left it (before any clipping):
    a post-accumulate-grad hook per parameter keeps the latest squared norm; `snapshot()` (once per step) stores
    the per-layer norms. Use as a context manager: the hooks are removed on exit."""

    def __init__(self, model, group=layer_group):
        self.model, self.group = model, group
        self.latest, self.history, self.handles = {}, [], []

    def __enter__(self):
        for name, p in self.model.named_parameters():
            if p.requires_grad:
                self.handles.append(p.register_post_accumulate_grad_hook(
                    lambda p, name=name: self.latest.__setitem__(name, float(p.grad.detach().double().pow(2).sum()))))
        return self

    def snapshot(self):
        norms = {}
        for name, sq in self.latest.items():
            norms[self.group(name)] = norms.get(self.group(name), 0.0) + sq
        self.history.append({k: math.sqrt(v) for k, v in norms.items()})
        self.latest = {}

    def __exit__(self, *exc):
        for handle in self.handles:
            handle.remove()
        self.handles = []
        return False


def cycle(loader):
    """Batches from `loader` forever, epoch after epoch (a new shuffle each epoch)."""
    while True:
        empty = True
        for batch in loader:
            empty = False
            yield batch
        if empty:
            raise ValueError("the loader yields no batch (drop_last with fewer items than batch_size?)")


def train(model, loader, optimizer, *, steps, step_fn, step_kwargs=None, eval_fn=None, eval_every=50,
          plot_every=10, baseline=None, baseline_label="unigram baseline", grad_norms=None, desc="training"):
    """Runs `steps` calls of `step_fn(model, batch, optimizer, **step_kwargs)` on batches from `loader`, with a
    tqdm.auto progress bar and a live loss plot. `eval_fn()` (optional) is called every `eval_every` steps and at
    the end; its value is stored as "eval_loss". `grad_norms`: a LayerGradNorms to snapshot after each step.
    Returns the list of the step's metric dicts (plus "step", "seconds" and, where measured, "eval_loss")."""
    step_kwargs = step_kwargs or {}
    plot = LiveLossPlot(title=desc, baseline=baseline, baseline_label=baseline_label, every=plot_every)
    history, batches = [], cycle(loader)
    bar = progress(total=steps, desc=desc)
    start = time.perf_counter()
    try:
        for step in range(1, steps + 1):
            metrics = dict(step_fn(model, next(batches), optimizer, **step_kwargs))
            if grad_norms is not None:
                grad_norms.snapshot()
            metrics["step"], metrics["seconds"] = step, time.perf_counter() - start
            if eval_fn is not None and (step % eval_every == 0 or step == steps):
                was_training = model.training
                model.eval()
                with torch.no_grad():
                    metrics["eval_loss"] = float(eval_fn())
                model.train(was_training)
            history.append(metrics)
            plot.update(step, float(metrics["loss"]))
            bar.set_postfix(loss=f"{float(metrics['loss']):.3f}", refresh=False)
            bar.update(1)
    finally:
        bar.close()
        plot.close()
    return history


@torch.no_grad()
def mean_loss(model, windows, batch_size=32, device=None):
    """Mean next-token cross-entropy of `model` over a TokenWindows dataset (every window, in order)."""
    device = device or next(model.parameters()).device
    total, count = 0.0, 0
    for i in range(0, len(windows), batch_size):
        batch = torch.stack([windows[j] for j in range(i, min(i + batch_size, len(windows)))]).to(device)
        logits = model(batch[:, :-1]).float()
        total += float(F.cross_entropy(logits.flatten(0, 1), batch[:, 1:].flatten(), reduction="sum"))
        count += batch[:, 1:].numel()
    return total / count


def fp16_scaled_step(model, tokens, targets, optimizer, scaler, *, max_norm=1.0):
    """One step in float16 autocast with a torch.amp.GradScaler, written for any device (the chapter runs it on
    CUDA, where fp16 needs the scaler): scale the loss, backward, unscale before clipping, step (skipped when a
    gradient overflowed), update the scale. Returns (loss, grad_norm, scale used)."""
    device_type = tokens.device.type
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(device_type, dtype=torch.float16):
        logits = model(tokens)
    loss = F.cross_entropy(logits.float().flatten(0, 1), targets.flatten())
    scale = scaler.get_scale() if scaler.is_enabled() else 1.0
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)                       # clip the true gradients, not the scaled ones
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    scaler.step(optimizer)                           # skips the step if grad_norm is inf or nan
    scaler.update()
    return loss.item(), float(grad_norm), float(scale)


# ---------------------------------------------------------------- the command-line trainer (torchrun)
def _parse(argv):
    parser = argparse.ArgumentParser(prog="python -m course.trainer",
                                     description="Train the tiny decoder on the standard library's source text; "
                                                 "data parallel (DDP) when started by torchrun.")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch-size", type=int, default=16, help="sequences per process per step")
    parser.add_argument("--seq-len", type=int, default=64)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--max-norm", type=float, default=1.0)
    parser.add_argument("--max-bytes", type=int, default=400_000, help="bytes of standard-library text to read")
    parser.add_argument("--log-every", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def main(argv=None):
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, DistributedSampler

    from .text_data import VOCAB_SIZE, TokenWindows, byte_tokens, split_tokens, stdlib_bytes, unigram_loss

    args = _parse(argv)
    world_size, rank = int(os.environ.get("WORLD_SIZE", 1)), int(os.environ.get("RANK", 0))
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    distributed = world_size > 1
    if torch.cuda.is_available():
        device = torch.device("cuda", local_rank % torch.cuda.device_count())
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
    if distributed:
        import torch.distributed as dist

        dist.init_process_group("nccl" if device.type == "cuda" else "gloo")   # env:// from torchrun
    say = print if rank == 0 else (lambda *a, **k: None)
    say(f"world_size={world_size} backend={'nccl' if device.type == 'cuda' else 'gloo'} device={device} "
        f"torch={torch.__version__}", flush=True)

    train_tokens, held_out = split_tokens(byte_tokens(stdlib_bytes(args.max_bytes)), 0.9)
    windows, eval_windows = TokenWindows(train_tokens, args.seq_len), TokenWindows(held_out, args.seq_len)
    sampler = DistributedSampler(windows, num_replicas=world_size, rank=rank, shuffle=True, seed=args.seed,
                                 drop_last=True)
    loader = DataLoader(windows, batch_size=args.batch_size, sampler=sampler, drop_last=True)
    model = seeded_decoder(VOCAB_SIZE, args.dim, args.layers, args.heads, seed=args.seed).to(device)
    ddp_model = DDP(model) if distributed else model
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.1)
    warmup = max(1, args.steps // 10)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / warmup))
    say(f"{len(windows)} training windows of {args.seq_len + 1} bytes, {args.batch_size} per process per step, "
        f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)

    epoch, batches, start = 0, iter(()), time.perf_counter()
    for step in range(1, args.steps + 1):
        batch = next(batches, None)
        if batch is None:
            sampler.set_epoch(epoch)   # every rank reshuffles the same way, then takes its own share
            epoch += 1
            batches = iter(loader)
            batch = next(batches)
        batch = batch.to(device)
        logits = ddp_model(batch[:, :-1])
        loss = F.cross_entropy(logits.float().flatten(0, 1), batch[:, 1:].flatten())
        optimizer.zero_grad(set_to_none=True)
        loss.backward()               # DDP all-reduces (averages) gradient buckets during this call
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_norm)
        optimizer.step()
        scheduler.step()
        if step % args.log_every == 0 or step == args.steps or step == 1:
            say(f"step {step:5d}  loss {loss.item():.4f}  grad_norm {grad_norm.item():.3f}  "
                f"lr {scheduler.get_last_lr()[0]:.2e}  {time.perf_counter() - start:.1f} s", flush=True)

    model.eval()
    held = mean_loss(model, eval_windows, device=device)
    baseline = unigram_loss(train_tokens, held_out)
    if distributed:
        flat = torch.cat([p.detach().flatten() for p in model.parameters()])
        reference = flat.clone()
        dist.broadcast(reference, src=0)
        diff = (flat - reference).abs().max()
        dist.all_reduce(diff, op=dist.ReduceOp.MAX)
        say(f"ranks agree: largest parameter difference from rank 0 = {diff.item():.1e}", flush=True)
        dist.destroy_process_group()
    say(f"held-out loss {held:.4f} nats/byte; unigram baseline {baseline:.4f}; uniform {math.log(VOCAB_SIZE):.4f}",
        flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
