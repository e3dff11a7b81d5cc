# fails: test_ddp_grads_hidden
# Canonical mistake: torch.chunk splits the rows: ceil(rows / accum_steps) rows per chunk, so 6 rows with
# accum_steps=4 make three micro-batches of 2 (and 3 rows with 2 make 2 + 1, by luck the right split).
# Hint: Reread step 1: how many micro-batches, and how far apart may their sizes be?
def ddp_grads(rank, world_size, ddp_model, batch, accum_steps):
    tokens, targets, mask = batch
    count = torch.tensor([float(mask.sum())], dtype=torch.float64)
    dist.all_reduce(count)
    global_tokens = count.item()
    pieces = list(zip(tokens.chunk(accum_steps), targets.chunk(accum_steps), mask.chunk(accum_steps)))
    loss_sum = torch.zeros(1, dtype=torch.float64)
    for i, (tok, tgt, msk) in enumerate(pieces):
        with (ddp_model.no_sync() if i < len(pieces) - 1 else torch.enable_grad()):
            per_token = F.cross_entropy(ddp_model(tok).float().flatten(0, 1), tgt.flatten(), reduction="none")
            piece_sum = (per_token * msk.flatten()).sum()
            (piece_sum * world_size / global_tokens).backward()
        loss_sum += piece_sum.detach().double()
    dist.all_reduce(loss_sum)
    return loss_sum.item() / global_tokens
