# Canonical mistake: no finiteness check; comparisons with nan are always False, so a run that went to nan looks calm.
# Hint: Reread rule 1: which losses count as not finite, and what comparisons with them do.
def classify_run(losses):
    if len(losses) < 2:
        raise ValueError("need at least two losses")
    first, last = losses[0], losses[-1]
    if max(losses) > 100 * abs(first):
        return "diverged"
    if abs(last - first) <= 0.01 * abs(first):
        return "stalled"
    if last > first:
        return "diverged"
    rises = sum(b > a for a, b in zip(losses, losses[1:]))
    if rises > 0.25 * (len(losses) - 1):
        return "oscillating"
    return "converging"
