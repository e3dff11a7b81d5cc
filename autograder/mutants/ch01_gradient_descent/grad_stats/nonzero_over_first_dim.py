# Canonical mistake: divides the count of non-zero entries by len(t), the size of the first dimension only.
# Hint: Reread the "nonzero" bullet: a fraction of which entries, for a tensor of any shape?
def grad_stats(t):
    t = t.detach()
    return {"mean": t.mean().item(), "std": t.std().item(), "min": t.min().item(), "max": t.max().item(),
            "nonzero": torch.count_nonzero(t).item() / len(t)}
