# Correct, written differently: torch.chunk-free splitting with tensor_split on an index range, cross-entropy with
# reduction="sum" over the real positions, the norm of the stacked per-parameter norms.
def train_step(model, batch, optimizer, *, accum_steps, max_norm, scheduler, autocast_dtype):
    tokens, targets, mask = batch
    optimizer.zero_grad()
    count = int(mask.sum().item())
    loss_total = 0.0
    for idx in torch.arange(tokens.shape[0]).tensor_split(accum_steps):
        with torch.autocast(device_type=tokens.device.type, dtype=autocast_dtype or torch.bfloat16,
                            enabled=autocast_dtype is not None):
            out = model(tokens[idx]).float()
        m = mask[idx]
        s = F.cross_entropy(out[m], targets[idx][m], reduction="sum")
        (s / count).backward()
        loss_total += s.item()
    grads = [p.grad for g in optimizer.param_groups for p in g["params"] if p.grad is not None]
    norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g.double()) for g in grads]))
    if max_norm is not None:
        factor = min(1.0, max_norm / (norm.item() + 1e-6))
        for g in grads:
            g.mul_(factor)
    lr = optimizer.param_groups[0]["lr"]
    optimizer.step()
    if scheduler:
        scheduler.step()
    return {"tokens": count, "lr": float(lr), "grad_norm": norm.item(), "loss": loss_total / count}
