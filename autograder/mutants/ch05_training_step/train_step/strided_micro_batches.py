# Canonical mistake: micro-batch k takes rows k, k + accum_steps, k + 2 * accum_steps, ...: the sizes are right, but
# the rows are not consecutive.
# Hint: Reread step 2: which rows go together in a micro-batch.
def train_step(model, batch, optimizer, *, accum_steps, max_norm, scheduler, autocast_dtype):
    tokens, targets, mask = batch
    optimizer.zero_grad(set_to_none=True)
    n_tokens = int(mask.sum())
    total_loss = 0.0
    for tok, tgt, msk in ((tokens[k::accum_steps], targets[k::accum_steps], mask[k::accum_steps])
                             for k in range(accum_steps)):
        with torch.autocast(device_type=tokens.device.type, dtype=autocast_dtype or torch.float32,
                            enabled=autocast_dtype is not None):
            logits = model(tok)
        per_token = F.cross_entropy(logits.float().flatten(0, 1), tgt.flatten(), reduction="none")
        loss_sum = (per_token * msk.flatten()).sum()
        (loss_sum / n_tokens).backward()
        total_loss += loss_sum.item()
    params = [p for group in optimizer.param_groups for p in group["params"]]
    grad_norm = torch.nn.utils.clip_grad_norm_(params, max_norm if max_norm is not None else float("inf"))
    lr = optimizer.param_groups[0]["lr"]
    optimizer.step()
    if scheduler is not None:
        scheduler.step()
    return {"loss": total_loss / n_tokens, "grad_norm": grad_norm.item(), "lr": float(lr), "tokens": n_tokens}
