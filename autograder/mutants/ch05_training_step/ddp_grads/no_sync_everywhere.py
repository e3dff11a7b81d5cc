# Canonical mistake: every backward under no_sync(), the last one too: the gradients are never all-reduced and the
# ranks drift apart.
# Hint: Reread step 1: which backward runs outside no_sync(), so the gradients are communicated once.
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
    dist.all_reduce(loss_sum)
    return loss_sum.item() / global_tokens
