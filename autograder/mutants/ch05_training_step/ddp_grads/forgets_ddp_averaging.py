# Canonical mistake: divides by the global token count but forgets that DDP divides the summed gradients by
# world_size too: the gradients come out world_size times too small.
# Hint: Reread step 2: what DDP does to the summed gradients, and what the scaling must undo.
def ddp_grads(rank, world_size, ddp_model, batch, accum_steps):
    tokens, targets, mask = batch
    count = torch.tensor([float(mask.sum())], dtype=torch.float64)
    dist.all_reduce(count)
    global_tokens = count.item()
    pieces = list(zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                      mask.tensor_split(accum_steps)))
    loss_sum = torch.zeros(1, dtype=torch.float64)
    for i, (tok, tgt, msk) in enumerate(pieces):
        with (ddp_model.no_sync() if i < len(pieces) - 1 else torch.enable_grad()):
            per_token = F.cross_entropy(ddp_model(tok).float().flatten(0, 1), tgt.flatten(), reduction="none")
            piece_sum = (per_token * msk.flatten()).sum()
            (piece_sum / global_tokens).backward()
        loss_sum += piece_sum.detach().double()
    dist.all_reduce(loss_sum)
    return loss_sum.item() / global_tokens
