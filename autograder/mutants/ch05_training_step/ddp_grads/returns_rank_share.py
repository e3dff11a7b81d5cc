# Canonical mistake: the gradients are right, but the returned loss is this rank's share of the global mean (its
# own tokens' loss over the global count), never summed over the ranks: each rank reports a different number.
# Hint: Reread step 3: the global mean loss, the same on every rank.
def ddp_grads(rank, world_size, ddp_model, batch, accum_steps):
    tokens, targets, mask = batch
    count = torch.tensor([float(mask.sum())], dtype=torch.float64)
    dist.all_reduce(count)
    global_tokens = count.item()
    pieces = list(zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                      mask.tensor_split(accum_steps)))
    loss_sum = 0.0
    for i, (tok, tgt, msk) in enumerate(pieces):
        with (ddp_model.no_sync() if i < len(pieces) - 1 else torch.enable_grad()):
            per_token = F.cross_entropy(ddp_model(tok).float().flatten(0, 1), tgt.flatten(), reduction="none")
            piece_sum = (per_token * msk.flatten()).sum()
            (piece_sum * world_size / global_tokens).backward()
        loss_sum += piece_sum.item()
    return loss_sum / global_tokens
