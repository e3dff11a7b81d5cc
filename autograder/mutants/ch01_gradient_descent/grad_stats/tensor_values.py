# Canonical mistake: no .item(); the dict holds 0-d tensors, not Python floats.
# Hint: Reread the statement's sentence about `.item()` and what each of the five values must be.
def grad_stats(t):
    t = t.detach()
    return {"mean": t.mean(), "std": t.std(), "min": t.min(), "max": t.max(),
            "nonzero": (t != 0).double().mean()}
