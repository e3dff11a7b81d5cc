# Correct in another style: plain Python over the entries (tolist), two passes for the sample std.
def grad_stats(t):
    values = t.detach().flatten().tolist()
    n = len(values)
    mean = sum(values) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return {"mean": mean, "std": std, "min": min(values), "max": max(values),
            "nonzero": sum(1 for v in values if v != 0) / n}
