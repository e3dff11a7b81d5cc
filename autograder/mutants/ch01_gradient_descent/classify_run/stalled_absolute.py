# fails: test_classify_run_hidden
# Canonical mistake: "within 1 %" read as an absolute 0.01, which is only right when the first loss is 1.
# Hint: Reread rule 2: within 1 % of what?
def classify_run(losses):
    if len(losses) < 2:
        raise ValueError("need at least two losses")
    first, last = losses[0], losses[-1]
    if not all(math.isfinite(v) for v in losses) or max(losses) > 100 * abs(first):
        return "diverged"
    if abs(last - first) <= 0.01:
        return "stalled"
    if last > first:
        return "diverged"
    rises = sum(b > a for a, b in zip(losses, losses[1:]))
    if rises > 0.25 * (len(losses) - 1):
        return "oscillating"
    return "converging"
