# fails: test_classify_run_hidden
# Canonical mistake: a flat step (equal losses) counted as a rise.
# Hint: Reread rule 4: the comparison it counts, exactly as written.
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
    rises = sum(b >= a for a, b in zip(losses, losses[1:]))
    if rises > 0.25 * (len(losses) - 1):
        return "oscillating"
    return "converging"
