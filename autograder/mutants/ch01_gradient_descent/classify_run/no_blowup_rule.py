# Canonical mistake: only nan/inf count as diverged; a run that blew up and came back down looks stalled.
# Hint: Reread rule 1: its second half, about a loss more than 100 times the size of the first.
def classify_run(losses):
    if len(losses) < 2:
        raise ValueError("need at least two losses")
    first, last = losses[0], losses[-1]
    if not all(math.isfinite(v) for v in losses):
        return "diverged"
    if abs(last - first) <= 0.01 * abs(first):
        return "stalled"
    if last > first:
        return "diverged"
    rises = sum(b > a for a, b in zip(losses, losses[1:]))
    if rises > 0.25 * (len(losses) - 1):
        return "oscillating"
    return "converging"
