# Canonical mistake: the mean of the magnitudes |g| (the "gradient size") instead of the signed mean.
# Hint: Reread the first bullet of the statement: what "mean" is taken over, and whether signs are kept.
def grad_stats(t):
    t = t.detach()
    return {"mean": t.abs().mean().item(), "std": t.std().item(), "min": t.min().item(), "max": t.max().item(),
            "nonzero": (t != 0).double().mean().item()}
