# fails: test_classify_run_hidden
# Canonical mistake: divides the rises by the number of losses, not the number of steps between them.
# Hint: Reread rule 4: what the count of rises is compared with.
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
    rises = sum(b > a for a, b in zip(losses, losses[1:]))
    if rises > 0.25 * len(losses):
        return "oscillating"
    return "converging"
