# fails: test_ddp_grads_hidden
# Canonical mistake: multiplies by 2 instead of world_size: right for two processes only.
# Hint: Reread the factor that undoes DDP's average: the number of processes, world_size.
def ddp_grads(rank, world_size, ddp_model, batch, accum_steps):
    tokens, targets, mask = batch
    count = torch.tensor([float(mask.sum())], dtype=torch.float64)
    dist.all_reduce(count)
    global_tokens = count.item()
    pieces = list(zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                      mask.tensor_split(accum_steps)))
    loss_sum = torch.zeros(1, dtype=torch.float64)
    for i, (tok, tgt, msk) in enumerate(pieces):
        last = i == len(pieces) - 1
        with (ddp_model.no_sync() if not last else torch.enable_grad()):
            logits = ddp_model(tok)
            per_token = F.cross_entropy(logits.float().flatten(0, 1), tgt.flatten(), reduction="none")
            piece_sum = (per_token * msk.flatten()).sum()
            (piece_sum * 2 / global_tokens).backward()
        loss_sum += piece_sum.detach().double()
    dist.all_reduce(loss_sum)
    return loss_sum.item() / global_tokens
