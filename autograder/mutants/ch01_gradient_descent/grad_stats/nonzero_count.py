# Canonical mistake: "nonzero" as a count of entries, not the fraction.
# Hint: Reread the "nonzero" bullet of the statement: it asks for a fraction, and names its range.
def grad_stats(t):
    t = t.detach()
    return {"mean": t.mean().item(), "std": t.std().item(), "min": t.min().item(), "max": t.max().item(),
            "nonzero": float((t != 0).sum().item())}
