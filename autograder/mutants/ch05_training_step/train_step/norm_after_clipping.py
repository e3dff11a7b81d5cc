# fails: test_train_step, test_train_step_hidden
# Canonical mistake: the gradient norm is measured after clipping, so the log never shows a spike above max_norm.
# Hint: Reread the "grad_norm" key: the total norm before clipping.
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
        loss_sum = (per_token * msk.flatten()).sum()
        (loss_sum / n_tokens).backward()
        total += loss_sum.item()
    params = [p for group in optimizer.param_groups for p in group["params"]]
    if max_norm is not None:
        torch.nn.utils.clip_grad_norm_(params, max_norm)
    grad_norm = torch.nn.utils.clip_grad_norm_(params, float("inf"))
    lr = optimizer.param_groups[0]["lr"]
    optimizer.step()
    if scheduler is not None:
        scheduler.step()
    return {"loss": total / n_tokens, "grad_norm": grad_norm.item(), "lr": float(lr), "tokens": n_tokens}
