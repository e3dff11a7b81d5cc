# Canonical mistake: every backward under no_sync(), then the gradients all-reduced by hand: the values come out
# right, but DDP's bucketed all-reduce during the last backward (overlapping it) is replaced by one call per
# parameter after backward.
# Hint: Reread step 1: which backward communicates, and who does the communicating.
def ddp_grads(rank, world_size, ddp_model, batch, accum_steps):
    tokens, targets, mask = batch
    count = torch.tensor([float(mask.sum())], dtype=torch.float64)
    dist.all_reduce(count)
    global_tokens = count.item()
    loss_sum = torch.zeros(1, dtype=torch.float64)
    with ddp_model.no_sync():
        for tok, tgt, msk in zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                                 mask.tensor_split(accum_steps)):
            per_token = F.cross_entropy(ddp_model(tok).float().flatten(0, 1), tgt.flatten(), reduction="none")
            piece_sum = (per_token * msk.flatten()).sum()
            (piece_sum * world_size / global_tokens).backward()
            loss_sum += piece_sum.detach().double()
    for p in ddp_model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world_size
    dist.all_reduce(loss_sum)
    return loss_sum.item() / global_tokens
