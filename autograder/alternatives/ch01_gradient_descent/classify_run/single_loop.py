# Correct in another style: one explicit loop gathers finiteness, the maximum and the rises.
def classify_run(losses):
    n = len(losses)
    if n < 2:
        raise ValueError(f"got {n} losses, need at least 2")
    first, last = losses[0], losses[n - 1]
    finite, highest, rises = True, losses[0], 0
    for i, loss in enumerate(losses):
        if loss != loss or loss in (float("inf"), float("-inf")):
            finite = False
        highest = loss if loss > highest else highest
        if i > 0 and loss > losses[i - 1]:
            rises += 1
    if not finite or highest > 100 * abs(first):
        return "diverged"
    if abs(last - first) / abs(first) <= 0.01 if first != 0 else last == first:
        return "stalled"
    if last > first:
        return "diverged"
    if 4 * rises > n - 1:
        return "oscillating"
    return "converging"
