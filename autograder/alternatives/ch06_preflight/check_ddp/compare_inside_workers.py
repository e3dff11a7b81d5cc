def check_ddp(flight):
    pristine = copy_model(flight.model)
    spare = copy_model(flight.model)
    single = copy_model(flight.model).train()
    twin = copy_model(flight.model).train()
    batch = flight.make_batch(flight.batch_size)
    parts = batch if isinstance(batch, tuple) else (batch,)
    dtypes = []
    with without_dropout():
        torch.manual_seed(0)
        state = torch.get_rng_state()
        with torch.autograd.graph.saved_tensors_hooks(lambda t: dtypes.append(t.dtype) or t.detach(), lambda t: t):
            flight.loss_fn(single, batch).backward()
        first = flat_grads(single).clone()
        quiet = torch.equal(state, torch.get_rng_state())
        torch.manual_seed(1)
        flight.loss_fn(twin, batch).backward()
        training = quiet and torch.equal(first, flat_grads(twin))
        reference = first
        if not training:
            spare.eval()
            flight.loss_fn(spare, batch).backward()
            reference = flat_grads(spare)
    scale = 2 ** -5 if any(d in (torch.float16, torch.bfloat16) for d in dtypes) else 1e-4
    limit = scale * reference.abs().max().item()

    def compare(rank, world_size, model):
        # each rank compares its own DDP gradient with the one-process reference
        model.train(training)
        ddp = DDP(model, static_graph=True)
        rows = shard_rows(flight.batch_size, rank, world_size)
        shard = tuple(t[rows] for t in parts)
        with without_dropout():
            flight.loss_fn(ddp, shard if isinstance(batch, tuple) else shard[0]).backward()
        return (flat_grads(model) - reference).abs().max().item()

    gaps = launch(compare, pristine, world_size=2, echo=False)
    ok = all(gap <= limit for gap in gaps)
    return CheckResult("ddp", ok, f"max |DDP - single| = {max(gaps):.3e} (limit {limit:.3e})")
