# fails: test_ddp_grads_hidden
# Canonical mistake: the micro-batches before the last call the wrapped model, ddp_model.module, under no_sync():
# the gradients come out the same, but DDP's forward (buffer broadcast, its bookkeeping for the backward) is skipped.
# Hint: Reread step 1: which model is called once per micro-batch?
def ddp_grads(rank, world_size, ddp_model, batch, accum_steps):
    tokens, targets, mask = batch
    count = torch.tensor([float(mask.sum())], dtype=torch.float64)
    dist.all_reduce(count)                       # real tokens of every rank together
    global_tokens = count.item()
    pieces = list(zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                      mask.tensor_split(accum_steps)))
    loss_sum = torch.zeros(1, dtype=torch.float64)
    for i, (tok, tgt, msk) in enumerate(pieces):
        last = i == len(pieces) - 1
        with (ddp_model.no_sync() if not last else torch.enable_grad()):
            logits = (ddp_model if last else ddp_model.module)(tok)   # the inner model: no DDP needed here
            per_token = F.cross_entropy(logits.float().flatten(0, 1), tgt.flatten(), reduction="none")
            piece_sum = (per_token * msk.flatten()).sum()
            # DDP divides by world_size when it averages: multiply it back
            (piece_sum * world_size / global_tokens).backward()
        loss_sum += piece_sum.detach().double()
    dist.all_reduce(loss_sum)
    return loss_sum.item() / global_tokens
