# Correct, written differently: pick the real positions with the mask, then a plain mean cross-entropy.
def masked_mean_loss(logits, targets, mask):
    return F.cross_entropy(logits[mask], targets[mask])
