# Canonical mistake: the masked sum divided by every position, padding included.
# Hint: Reread what the mean is taken over: the positions where mask is True.
def masked_mean_loss(logits, targets, mask):
    per_token = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), reduction="none")
    return (per_token * mask.flatten().to(per_token.dtype)).sum() / mask.numel()
