# Canonical mistake: "max" as the largest magnitude, the number the chapter prints per layer, not the largest entry.
# Hint: Reread the parenthesis in the first bullet of the statement about what "max" is.
def grad_stats(t):
    t = t.detach()
    return {
        "mean": t.mean().item(),
        "std": t.std().item(),
        "min": t.min().item(),
        "max": t.abs().max().item(),
        "nonzero": (t != 0).double().mean().item(),
    }
