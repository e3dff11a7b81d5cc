# fails: test_check_ddp_hidden
# Canonical mistake: copies the model after a forward pass, which deepcopy refuses when a hook of the model
# keeps its outputs (tensors that are not leaves).
# Hint: Reread when the copies of flight.model are made: before any forward pass.
import copy

import torch

from course.ddp import DistributedDataParallel as DDP, flat_grads, launch, shard_rows
from course.preflight import CheckResult, without_dropout


def _shard(batch, rows):
    if isinstance(batch, tuple):
        return tuple(t[rows] for t in batch)
    return batch[rows]


def _worker(rank, world_size, model, batch, loss_fn, train, batch_size):
    model.train(train)
    model.zero_grad()
    ddp_model = DDP(model, static_graph=True)
    shard = _shard(batch, shard_rows(batch_size, rank, world_size))
    with without_dropout():
        loss_fn(ddp_model, shard).backward()
    return flat_grads(model)


def check_ddp(flight):
    model = copy.deepcopy(flight.model)
    batch = flight.make_batch(flight.batch_size)

    dtypes = set()

    def pack(t):
        dtypes.add(t.dtype)
        return t.detach()

    model.train()
    model.zero_grad()
    torch.manual_seed(0)
    seeded = torch.get_rng_state()
    with without_dropout():
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            loss = flight.loss_fn(model, batch)
        loss.backward()
    drew = not torch.equal(seeded, torch.get_rng_state())
    first = flat_grads(model)
    model.zero_grad()
    torch.manual_seed(1)
    with without_dropout():
        flight.loss_fn(model, batch).backward()
    second = flat_grads(model)

    train = torch.equal(first, second) and not drew
    model.zero_grad()
    eval_copy = copy.deepcopy(model)
    for_ranks = copy.deepcopy(model)
    if train:
        reference = first
    else:
        eval_copy.eval()
        eval_copy.zero_grad()
        with without_dropout():
            flight.loss_fn(eval_copy, batch).backward()
        reference = flat_grads(eval_copy)

    grads = launch(_worker, for_ranks, batch, flight.loss_fn, train, flight.batch_size, world_size=2, echo=False)
    low = torch.float16 in dtypes or torch.bfloat16 in dtypes
    tolerance = (2 ** -5 if low else 1e-4) * reference.abs().max().item()
    gap = max((g - reference).abs().max().item() for g in grads)
    mode = "training" if train else "eval"
    if gap <= tolerance:
        return CheckResult("ddp", True, f"DDP matches one process within {tolerance:.2e} ({mode} mode; largest "
                           f"difference {gap:.2e})")
    return CheckResult("ddp", False, f"DDP gradients differ from one process by up to {gap:.3e} (tolerance "
                       f"{tolerance:.2e}, {mode} mode)")
