# Canonical mistake: each rank's loss is the mean over its own real tokens; DDP then averages the ranks, so a token on
# the rank with fewer tokens counts more.
# Hint: Reread step 2: the mean is over all real tokens of the global batch, not of this rank's share.
def ddp_grads(rank, world_size, ddp_model, batch, accum_steps):
    tokens, targets, mask = batch
    local_tokens = float(mask.sum())
    pieces = list(zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                      mask.tensor_split(accum_steps)))
    loss_sum = torch.zeros(1, dtype=torch.float64)
    for i, (tok, tgt, msk) in enumerate(pieces):
        with (ddp_model.no_sync() if i < len(pieces) - 1 else torch.enable_grad()):
            per_token = F.cross_entropy(ddp_model(tok).float().flatten(0, 1), tgt.flatten(), reduction="none")
            piece_sum = (per_token * msk.flatten()).sum()
            (piece_sum / local_tokens).backward()
        loss_sum += piece_sum.detach().double()
    local_mean = loss_sum / local_tokens
    dist.all_reduce(local_mean)
    return local_mean.item() / world_size
