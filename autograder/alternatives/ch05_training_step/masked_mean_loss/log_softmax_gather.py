# Correct, written differently: log-probabilities gathered at the targets, summed over the mask, divided by its count.
def masked_mean_loss(logits, targets, mask):
    log_p = logits.log_softmax(dim=-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -(log_p * mask).sum() / mask.sum()
