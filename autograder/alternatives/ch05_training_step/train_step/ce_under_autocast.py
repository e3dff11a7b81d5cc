# Correct, written differently: micro-batch edges B * k // accum_steps (the smaller micro-batches first), and the
# cross-entropy taken inside the autocast block, where autocast runs it in float32 on CPU and CUDA alike.
def train_step(model, batch, optimizer, *, accum_steps, max_norm, scheduler, autocast_dtype):
    tokens, targets, mask = batch
    optimizer.zero_grad()
    rows = tokens.shape[0]
    edges = [rows * k // accum_steps for k in range(accum_steps + 1)]
    n_real = int(mask.sum().item())
    summed = 0.0
    for a, b in zip(edges[:-1], edges[1:]):
        with torch.autocast(tokens.device.type, dtype=autocast_dtype or torch.float32,
                            enabled=autocast_dtype is not None):
            logits = model(tokens[a:b])
            losses = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets[a:b].reshape(-1),
                                     reduction="none")
        piece = (losses.float() * mask[a:b].reshape(-1)).sum()
        (piece / n_real).backward()
        summed += piece.item()
    params = [p for group in optimizer.param_groups for p in group["params"]]
    norm = torch.nn.utils.clip_grad_norm_(params, float("inf") if max_norm is None else max_norm)
    used = optimizer.param_groups[0]["lr"]
    optimizer.step()
    if scheduler is not None:
        scheduler.step()
    return {"loss": summed / n_real, "grad_norm": float(norm), "lr": float(used), "tokens": n_real}
