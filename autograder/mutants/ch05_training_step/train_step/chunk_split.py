# Canonical mistake: torch.chunk splits the rows: it makes chunks of ceil(B / accum_steps) rows, so B = 6 with
# accum_steps=4 gives 2, 2, 2 (three micro-batches, not four) and B = 5 with 4 gives 2, 2, 1.
# Hint: Reread step 2: how many micro-batches, and how far apart may their sizes be?
def train_step(model, batch, optimizer, *, accum_steps, max_norm, scheduler, autocast_dtype):
    tokens, targets, mask = batch
    optimizer.zero_grad(set_to_none=True)
    n_tokens = int(mask.sum())
    total_loss = 0.0
    for tok, tgt, msk in zip(tokens.chunk(accum_steps), targets.chunk(accum_steps), mask.chunk(accum_steps)):
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
