def check_ddp(flight):
    batch = flight.make_batch(flight.batch_size)
    parts = batch if isinstance(batch, tuple) else (batch,)
    single = copy.deepcopy(flight.model).eval()
    flight.loss_fn(single, batch).backward()
    reference = flat_grads(single)

    def compare(rank, world_size, model):
        # each rank compares its own DDP gradient with the one-process reference
        model.eval()
        ddp = DDP(model, find_unused_parameters=True)
        rows = shard_rows(flight.batch_size, rank, world_size)
        shard = tuple(t[rows] for t in parts)
        flight.loss_fn(ddp, shard if isinstance(batch, tuple) else shard[0]).backward()
        return (flat_grads(model) - reference).abs().max().item()

    gaps = launch(compare, copy.deepcopy(flight.model), world_size=2, echo=False)
    ok = all(gap <= 1e-4 * reference.abs().max().item() for gap in gaps)
    return CheckResult("ddp", ok, f"max |DDP - single| = {max(gaps):.3e}")
