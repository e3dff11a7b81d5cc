# Correct, written differently: padded targets set to ignore_index (-100), which cross_entropy leaves out of the mean.
def masked_mean_loss(logits, targets, mask):
    kept = targets.masked_fill(~mask, -100)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), kept.reshape(-1), ignore_index=-100)
