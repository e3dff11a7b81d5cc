# fails: test_classify_run_hidden
# Canonical mistake: rules in the wrong order -- a flat run that ends a hair higher is called "diverged".
# Hint: Reread the rules' order: the first rule that matches decides.
def classify_run(losses):
    if len(losses) < 2:
        raise ValueError("need at least two losses")
    first, last = losses[0], losses[-1]
    if not all(math.isfinite(v) for v in losses) or max(losses) > 100 * abs(first):
        return "diverged"
    if last > first:
        return "diverged"
    if abs(last - first) <= 0.01 * abs(first):
        return "stalled"
    rises = sum(b > a for a, b in zip(losses, losses[1:]))
    if rises > 0.25 * (len(losses) - 1):
        return "oscillating"
    return "converging"
