# Canonical mistake: padded positions set to 0 and skipped with ignore_index=0: a real target token 0 (a valid id,
# such as the padding id) is dropped from the mean too.
# Hint: Reread what the padded positions hold ("the padding id, a valid id"): only `mask` says which positions count.
def masked_mean_loss(logits, targets, mask):
    kept = targets.masked_fill(~mask, 0)
    return F.cross_entropy(logits.flatten(0, 1), kept.flatten(), ignore_index=0)
