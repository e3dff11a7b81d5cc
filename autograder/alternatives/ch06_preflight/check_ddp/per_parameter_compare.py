def _grads_on_rank(rank, world_size, model, batch, loss_fn, n):
    model = model.eval()
    wrapped = DDP(model, find_unused_parameters=True)
    part = shard_rows(n, rank, world_size)
    if isinstance(batch, torch.Tensor):
        mine = batch[part]
    else:
        mine = tuple(t[part] for t in batch)
    loss_fn(wrapped, mine).backward()
    return [torch.zeros_like(p) if p.grad is None else p.grad.clone() for p in model.parameters()]

def check_ddp(flight):
    batch = flight.make_batch(flight.batch_size)
    ref = copy.deepcopy(flight.model)
    ref.eval()
    flight.loss_fn(ref, batch).backward()
    want = [torch.zeros_like(p) if p.grad is None else p.grad for p in ref.parameters()]
    top = max(w.abs().max().item() for w in want)
    results = launch(_grads_on_rank, copy.deepcopy(flight.model), batch, flight.loss_fn, flight.batch_size,
                     world_size=2, echo=False)
    worst = max((g - w).abs().max().item() for grads in results for g, w in zip(grads, want))
    return CheckResult("ddp", worst <= 1e-4 * top, f"worst difference {worst:.2e}, tolerance {1e-4 * top:.2e}")
