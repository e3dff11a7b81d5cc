def _ddp_grads_on_rank(rank, world_size, model, batch, loss_fn, n, training):
    model.train(training)
    wrapped = DDP(model, static_graph=True)
    part = shard_rows(n, rank, world_size)
    mine = batch[part] if isinstance(batch, torch.Tensor) else tuple(t[part] for t in batch)
    with without_dropout():
        loss_fn(wrapped, mine).backward()
    return [torch.zeros_like(p) if p.grad is None else p.grad.clone() for p in model.parameters()]

def _ddp_reference(model, batch, loss_fn, seed):
    model.zero_grad()
    torch.manual_seed(seed)
    start = torch.random.get_rng_state()
    with without_dropout():
        loss_fn(model, batch).backward()
    moved = not torch.equal(start, torch.random.get_rng_state())
    return [torch.zeros_like(p) if p.grad is None else p.grad.clone() for p in model.parameters()], moved

def check_ddp(flight):
    copies = [copy_model(flight.model) for _ in range(4)]
    batch = flight.make_batch(flight.batch_size)
    kinds = set()
    with torch.autograd.graph.saved_tensors_hooks(lambda t: kinds.add(t.dtype) or t.detach(), lambda t: t):
        want, moved = _ddp_reference(copies[0].train(), batch, flight.loss_fn, 0)
    again, _ = _ddp_reference(copies[3].train(), batch, flight.loss_fn, 1)
    training = not moved and all(torch.equal(a, b) for a, b in zip(want, again))
    if not training:
        want, _ = _ddp_reference(copies[1].eval(), batch, flight.loss_fn, 0)
    top = max(w.abs().max().item() for w in want)
    tolerance = (2 ** -5 if kinds & {torch.float16, torch.bfloat16} else 1e-4) * top
    results = launch(_ddp_grads_on_rank, copies[2], batch, flight.loss_fn, flight.batch_size, training,
                     world_size=2, echo=False)
    gaps = torch.tensor([(g - w).abs().max().item() for grads in results for g, w in zip(grads, want)])
    worst = gaps.max().item()                     # torch's max keeps a NaN; Python's max drops one that is not first
    return CheckResult("ddp", worst <= tolerance, f"worst difference {worst:.2e}, tolerance {tolerance:.2e}")
