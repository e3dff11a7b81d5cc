# Canonical mistake: padding positions are scored like real tokens.
# Hint: Reread the statement: masked-out positions contribute nothing.
def masked_mean_loss(logits, targets, mask):
    return F.cross_entropy(logits.flatten(0, 1), targets.flatten())
