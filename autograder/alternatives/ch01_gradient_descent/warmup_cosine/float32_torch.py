# Correct in another style: the cosine computed by torch in float32 (a tensor of the default dtype), .item() out.
def warmup_cosine(step, base_lr, warmup_steps, total_steps, min_lr=0.0):
    if warmup_steps > total_steps:
        raise ValueError(f"warmup of {warmup_steps} steps in a schedule of {total_steps}")
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    if step >= total_steps:
        return min_lr * 1.0
    progress = torch.tensor((step - warmup_steps) / (total_steps - warmup_steps))
    return (min_lr + 0.5 * (base_lr - min_lr) * (1 + torch.cos(torch.pi * progress))).item()
