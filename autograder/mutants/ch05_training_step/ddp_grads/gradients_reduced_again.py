# fails: test_ddp_grads_hidden
# Canonical mistake: all-reduces and averages the gradients by hand after DDP has already done it: the values
# are right, but every gradient crosses the network twice.
# Hint: Reread who averages the gradients: DDP, once, during the last micro-batch's backward.
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
            (piece_sum * world_size / global_tokens).backward()
        loss_sum += piece_sum.detach().double()
    dist.all_reduce(loss_sum)
    for p in ddp_model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world_size
    return loss_sum.item() / global_tokens
