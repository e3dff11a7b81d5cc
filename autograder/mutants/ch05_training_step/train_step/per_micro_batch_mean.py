# Canonical mistake: each micro-batch's own token mean divided by accum_steps: right only when every micro-batch
# holds as many real tokens.
# Hint: Reread step 2's last sentence: how the micro-batches must be weighted.
def train_step(model, batch, optimizer, *, accum_steps, max_norm, scheduler, autocast_dtype):
    tokens, targets, mask = batch
    optimizer.zero_grad(set_to_none=True)
    n_tokens = int(mask.sum())
    total = 0.0
    for tok, tgt, msk in zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                             mask.tensor_split(accum_steps)):
        with torch.autocast(device_type=tokens.device.type, dtype=autocast_dtype or torch.float32,
                            enabled=autocast_dtype is not None):
            logits = model(tok)
        per_token = F.cross_entropy(logits.float().flatten(0, 1), tgt.flatten(), reduction="none")
        loss = (per_token * msk.flatten()).sum() / msk.sum()
        (loss / accum_steps).backward()
        total += loss.item() / accum_steps
    params = [p for group in optimizer.param_groups for p in group["params"]]
    grad_norm = torch.nn.utils.clip_grad_norm_(params, max_norm if max_norm is not None else float("inf"))
    lr = optimizer.param_groups[0]["lr"]
    optimizer.step()
    if scheduler is not None:
        scheduler.step()
    return {"loss": total, "grad_norm": grad_norm.item(), "lr": float(lr), "tokens": n_tokens}
