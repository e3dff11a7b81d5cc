# Correct, written differently: every rank's token count gathered with all_gather; each micro-batch's masked mean
# rescaled by its tokens times world_size over the global count.
def ddp_grads(rank, world_size, ddp_model, batch, accum_steps):
    tokens, targets, mask = batch
    mine = torch.tensor([mask.sum().item()], dtype=torch.float64)
    every = [torch.zeros(1, dtype=torch.float64) for _ in range(world_size)]
    dist.all_gather(every, mine)
    global_tokens = sum(c.item() for c in every)
    pieces = list(zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                      mask.tensor_split(accum_steps)))
    local = 0.0
    for tok, tgt, msk in pieces[:-1]:
        with ddp_model.no_sync():
            piece = masked_mean_loss(ddp_model(tok), tgt, msk) * msk.sum().item()
            (piece * world_size / global_tokens).backward()
        local += piece.item()
    tok, tgt, msk = pieces[-1]
    piece = masked_mean_loss(ddp_model(tok), tgt, msk) * msk.sum().item()
    (piece * world_size / global_tokens).backward()
    local += piece.item()
    loss = torch.tensor([local], dtype=torch.float64)
    dist.all_reduce(loss)
    return loss.item() / global_tokens
