# Canonical mistake: counts the steps where the loss fell, not where it rose.
# Hint: Reread rule 4: which direction of a step does it count?
def classify_run(losses):
    if len(losses) < 2:
        raise ValueError("need at least two losses")
    first, last = losses[0], losses[-1]
    if not all(math.isfinite(v) for v in losses) or max(losses) > 100 * abs(first):
        return "diverged"
    if abs(last - first) <= 0.01 * abs(first):
        return "stalled"
    if last > first:
        return "diverged"
    falls = sum(b < a for a, b in zip(losses, losses[1:]))
    if falls > 0.25 * (len(losses) - 1):
        return "oscillating"
    return "converging"
