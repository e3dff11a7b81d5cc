# Correct, written differently: per-token losses, padding zeroed with torch.where, divided by the count of real ones.
def masked_mean_loss(logits, targets, mask):
    vocab = logits.size(-1)
    per_token = F.cross_entropy(logits.view(-1, vocab), targets.view(-1), reduction="none").view(mask.shape)
    return torch.where(mask, per_token, torch.zeros_like(per_token)).sum() / mask.sum()
