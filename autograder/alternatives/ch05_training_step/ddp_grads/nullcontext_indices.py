# Correct, written differently: micro-batch bounds by hand, contextlib.nullcontext for the synchronising backward,
# one all-reduce for the token count before and one for the loss after.
def ddp_grads(rank, world_size, ddp_model, batch, accum_steps):
    import contextlib
    tokens, targets, mask = batch
    n = torch.tensor(int(mask.sum()), dtype=torch.int64)
    dist.all_reduce(n, op=dist.ReduceOp.SUM)
    global_tokens = int(n)
    rows = tokens.shape[0]
    edges = [rows * k // accum_steps for k in range(accum_steps + 1)]
    total = 0.0
    for k in range(accum_steps):
        a, b = edges[k], edges[k + 1]
        context = ddp_model.no_sync() if k < accum_steps - 1 else contextlib.nullcontext()
        with context:
            logits = ddp_model(tokens[a:b])
            losses = F.cross_entropy(logits.flatten(0, 1), targets[a:b].flatten(), reduction="none")
            piece = losses[mask[a:b].flatten()].sum()
            (piece * (world_size / global_tokens)).backward()
        total += piece.item()
    summed = torch.tensor([total], dtype=torch.float64)
    dist.all_reduce(summed)
    return float(summed[0]) / global_tokens
