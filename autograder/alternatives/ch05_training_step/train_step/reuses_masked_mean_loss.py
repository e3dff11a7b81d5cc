# Correct, written differently: micro-batch boundaries computed by hand, each micro-batch's masked_mean_loss weighted
# by its share of the tokens, the norm from the notebook's own clip_grad_norm_ (or measured with an infinite cap).
def train_step(model, batch, optimizer, *, accum_steps, max_norm, scheduler, autocast_dtype):
    import contextlib
    tokens, targets, mask = batch
    for group in optimizer.param_groups:
        for p in group["params"]:
            p.grad = None
    rows = tokens.shape[0]
    base, extra = divmod(rows, accum_steps)
    bounds, start = [], 0
    for k in range(accum_steps):
        stop = start + base + (1 if k < extra else 0)
        bounds.append((start, stop))
        start = stop
    total_tokens = mask.sum().item()
    weighted = 0.0
    for a, b in bounds:
        amp = (torch.autocast(tokens.device.type, dtype=autocast_dtype) if autocast_dtype is not None
               else contextlib.nullcontext())
        with amp:
            logits = model(tokens[a:b])
        share = mask[a:b].sum().item() / total_tokens
        loss = masked_mean_loss(logits.float(), targets[a:b], mask[a:b]) * share
        loss.backward()
        weighted += loss.item()
    params = [p for group in optimizer.param_groups for p in group["params"]]
    if max_norm is None:
        norm = math.sqrt(sum(p.grad.double().pow(2).sum().item() for p in params if p.grad is not None))
    else:
        norm = clip_grad_norm_(params, max_norm).item()
    used_lr = float(optimizer.param_groups[0]["lr"])
    optimizer.step()
    if scheduler is not None:
        scheduler.step()
    return dict(loss=weighted, grad_norm=norm, lr=used_lr, tokens=int(total_tokens))
