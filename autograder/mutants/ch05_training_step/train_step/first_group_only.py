# fails: test_train_step_hidden
# Canonical mistake: measures and clips the gradients of the optimizer's first parameter group only.
# Hint: Reread which parameters are zeroed, measured and clipped: all of the optimizer's, in every group.
def train_step(model, batch, optimizer, *, accum_steps, max_norm, scheduler, autocast_dtype):
    tokens, targets, mask = batch
    optimizer.zero_grad(set_to_none=True)
    n_tokens = int(mask.sum())
    total_loss = 0.0
    for tok, tgt, msk in zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                             mask.tensor_split(accum_steps)):
        with torch.autocast(device_type=tokens.device.type, dtype=autocast_dtype or torch.float32,
                            enabled=autocast_dtype is not None):
            logits = model(tok)
        per_token = F.cross_entropy(logits.float().flatten(0, 1), tgt.flatten(), reduction="none")
        loss_sum = (per_token * msk.flatten()).sum()
        (loss_sum / n_tokens).backward()
        total_loss += loss_sum.item()
    params = optimizer.param_groups[0]["params"]
    grad_norm = torch.nn.utils.clip_grad_norm_(params, max_norm if max_norm is not None else float("inf"))
    lr = optimizer.param_groups[0]["lr"]
    optimizer.step()
    if scheduler is not None:
        scheduler.step()
    return {"loss": total_loss / n_tokens, "grad_norm": grad_norm.item(), "lr": float(lr), "tokens": n_tokens}
