# Canonical mistake: drops abs() around the first loss; with a negative first loss every run "blew up".
# Hint: Reread rule 1 and the sentence before the rules about negative losses.
def classify_run(losses):
    if len(losses) < 2:
        raise ValueError("need at least two losses")
    first, last = losses[0], losses[-1]
    if not all(math.isfinite(v) for v in losses) or max(losses) > 100 * first:
        return "diverged"
    if abs(last - first) <= 0.01 * first:
        return "stalled"
    if last > first:
        return "diverged"
    rises = sum(b > a for a, b in zip(losses, losses[1:]))
    if rises > 0.25 * (len(losses) - 1):
        return "oscillating"
    return "converging"
