# fails: test_check_ddp_hidden
# Canonical mistake: passes only when the difference is strictly below the tolerance, so gradients that are all 0 (tolerance 0,
# difference 0) fail.
# Hint: Reread the rule: the largest difference is at most the tolerance (<=).
def check_ddp(flight):
    def rows_of(batch, rows):                     # narrow_copy: a sparse tensor cannot be sliced
        take = lambda t: t.narrow_copy(0, rows.start, rows.stop - rows.start)
        return tuple(map(take, batch)) if isinstance(batch, tuple) else take(batch)

    def gradient(model, batch):
        model.zero_grad()
        with without_dropout():
            flight.loss_fn(model, batch).backward()
        return flat_grads(model)

    def rank_grads(rank, world_size, model, batch, train):
        ddp_model = DDP(model.train(train), static_graph=True)
        return gradient(ddp_model, rows_of(batch, shard_rows(flight.batch_size, rank, world_size)))

    one, again, one_eval, shipped = (copy_model(flight.model) for _ in range(4))   # before any forward pass
    batch = flight.make_batch(flight.batch_size)
    saved_dtypes = set()

    def pack(t):
        saved_dtypes.add(t.dtype)
        return t.detach()

    one.train()
    again.train()
    torch.manual_seed(0)
    seeded = torch.get_rng_state()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        want = gradient(one, batch)
    drew = not torch.equal(seeded, torch.get_rng_state())   # two seeds may draw alike when draws rarely matter
    torch.manual_seed(1)
    train = torch.equal(want, gradient(again, batch)) and not drew   # a fresh copy: state changed in forward repeats
    if not train:                                 # random beyond dropout in training mode: compare in eval mode
        want = gradient(one_eval.eval(), batch)
    got = launch(rank_grads, shipped, batch, train, world_size=2, echo=False)
    low_precision = bool(saved_dtypes & {torch.float16, torch.bfloat16})
    tolerance = (2 ** -5 if low_precision else 1e-4) * want.abs().max().item()
    gap = torch.stack([(g - want).abs().max() for g in got]).max().item()   # a NaN on either rank stays NaN
    mode = "training mode" if train else "eval mode (training mode does not repeat: random draws beyond dropout)"
    if not gap < tolerance:
        return CheckResult("ddp", False, f"2-process DDP gradients differ from one process's by up to {gap:.1e} "
                           f"(tolerance {tolerance:.1e}, {mode})")
    return CheckResult("ddp", True, f"2-process DDP gradients equal one process's within {tolerance:.1e} "
                       f"(largest difference {gap:.1e}, {mode})")
