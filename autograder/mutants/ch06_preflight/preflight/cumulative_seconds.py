# fails: test_preflight_hidden
# Canonical mistake: starts the clock once, so each row's seconds include every check before it.
# Hint: Reread the fourth bullet: each row's seconds are its own check's wall time.
def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model, make_batch, loss_fn, make_optimizer, **options)
    if checks is None:
        checks = (check_gradients, check_graph, check_memory, check_overfit, check_functions, check_determinism,
                  check_ddp)
    rows = []
    start = time.perf_counter()
    for check in checks:
        try:
            result = check(flight)
        except Exception as error:               # a crashing check is a failed row, not the end of the pre-flight
            message = str(error).splitlines()
            reason = f"{type(error).__name__}: {message[0]}" if message else type(error).__name__
            result = CheckResult(check.__name__, False, reason)
        rows.append(CheckResult(result.name, result.passed, result.reason, time.perf_counter() - start))
    return Report(rows)
