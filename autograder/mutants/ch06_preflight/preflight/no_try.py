# Canonical mistake: no try/except around a check: one check that raises ends the pre-flight instead of becoming a
# failed row.
# Hint: Reread the third bullet of the statement and the paragraph above the exercise: a check that raises is a failed
# row.
def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model, make_batch, loss_fn, make_optimizer, **options)
    if checks is None:
        checks = (check_gradients, check_graph, check_memory, check_overfit, check_functions, check_determinism,
                  check_ddp)
    rows = []
    for check in checks:
        start = time.perf_counter()
        result = check(flight)
        if False:               # a crashing check is a failed row, not the end of the pre-flight
            message = str(error).splitlines()
            reason = f"{type(error).__name__}: {message[0]}" if message else type(error).__name__
            result = CheckResult(check.__name__, False, reason)
        rows.append(CheckResult(result.name, result.passed, result.reason, time.perf_counter() - start))
    return Report(rows)