# fails: test_train_step_hidden
# Canonical mistake: the log-probabilities are taken under autocast and only converted to float32 afterwards; CPU
# autocast keeps log_softmax in bf16, so the loss is computed from bf16 log-probabilities.
# Hint: Reread step 2: convert first, then compute the cross-entropy.
def train_step(model, batch, optimizer, *, accum_steps, max_norm, scheduler, autocast_dtype):
    tokens, targets, mask = batch
    optimizer.zero_grad(set_to_none=True)
    n_tokens = int(mask.sum())
    total_loss = 0.0
    for tok, tgt, msk in zip(tokens.tensor_split(accum_steps), targets.tensor_split(accum_steps),
                             mask.tensor_split(accum_steps)):
        with torch.autocast(device_type=tokens.device.type, dtype=autocast_dtype or torch.float32,
                            enabled=autocast_dtype is not None):
            log_p = model(tok).log_softmax(-1)
        per_token = -log_p.float().gather(-1, tgt.unsqueeze(-1)).squeeze(-1)
        loss_sum = (per_token * msk).sum()
        (loss_sum / n_tokens).backward()
        total_loss += loss_sum.item()
    params = [p for group in optimizer.param_groups for p in group["params"]]
    grad_norm = torch.nn.utils.clip_grad_norm_(params, max_norm if max_norm is not None else float("inf"))
    lr = optimizer.param_groups[0]["lr"]
    optimizer.step()
    if scheduler is not None:
        scheduler.step()
    return {"loss": total_loss / n_tokens, "grad_norm": grad_norm.item(), "lr": float(lr), "tokens": n_tokens}
