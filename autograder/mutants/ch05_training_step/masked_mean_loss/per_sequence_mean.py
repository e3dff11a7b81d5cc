# Canonical mistake: the mean over each sequence, then the mean over sequences: a token of a short row weighs more.
# Hint: Reread "every real token weighs the same, however many real tokens its row has".
def masked_mean_loss(logits, targets, mask):
    per_token = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), reduction="none").view(targets.shape)
    weights = mask.to(per_token.dtype)
    return ((per_token * weights).sum(1) / weights.sum(1)).mean()
