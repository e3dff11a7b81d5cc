# Canonical mistake: population std (divide by n) instead of torch.std's sample std (divide by n-1).
# Hint: Reread the "std" bullet of the statement: which divisor, and which torch function it matches by default.
def grad_stats(t):
    t = t.detach()
    return {"mean": t.mean().item(), "std": t.std(correction=0).item(), "min": t.min().item(),
            "max": t.max().item(), "nonzero": (t != 0).double().mean().item()}
