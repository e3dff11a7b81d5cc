# Canonical mistake: "not zero" read as |t| > 1e-3, so small but real gradient entries count as dead.
# Hint: Reread the last sentence of the "nonzero" bullet: which entries count as not zero, however small.
def grad_stats(t):
    t = t.detach()
    return {"mean": t.mean().item(), "std": t.std().item(), "min": t.min().item(), "max": t.max().item(),
            "nonzero": (t.abs() > 1e-3).double().mean().item()}
