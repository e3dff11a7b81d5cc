# fails: test_check_ddp_hidden
# Canonical mistake: the ranks' copies stay in train mode, so dropout draws differ from the eval-mode reference.
# Hint: Reread the two-process bullet: each rank's copy is in eval mode too, and why.
def check_ddp(flight):
    def rank_grads(rank, world_size, model, batch):
        ddp_model = DDP(model, find_unused_parameters=True)
        rows = shard_rows(flight.batch_size, rank, world_size)
        shard = tuple(t[rows] for t in batch) if isinstance(batch, tuple) else batch[rows]
        flight.loss_fn(ddp_model, shard).backward()
        return flat_grads(model)

    batch = flight.make_batch(flight.batch_size)
    one = copy.deepcopy(flight.model).eval()
    flight.loss_fn(one, batch).backward()
    want = flat_grads(one)
    got = launch(rank_grads, copy.deepcopy(flight.model), batch, world_size=2, echo=False)
    gap = max((g - want).abs().max().item() for g in got)
    scale = want.abs().max().item()
    if gap > 1e-4 * scale:
        return CheckResult("ddp", False, f"2-process DDP gradients differ from one process by up to {gap:.1e} "
                           f"(largest gradient {scale:.1e})")
    return CheckResult("ddp", True, f"2-process DDP gradients equal one process's (largest difference {gap:.1e}, "
                       f"largest gradient {scale:.1e})")