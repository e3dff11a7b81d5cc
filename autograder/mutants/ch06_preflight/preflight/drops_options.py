# Canonical mistake: builds the flight without the options, so batch_size, steps and the rest keep their defaults.
# Hint: Reread the first bullet: the options are Flight's fields.
def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model, make_batch, loss_fn, make_optimizer)
    if checks is None:
        checks = (check_gradients, check_graph, check_memory, check_overfit, check_functions, check_determinism,
                  check_ddp)
    rows = []
    for check in checks:
        start = time.perf_counter()
        try:
            result = check(flight)
        except Exception as error:               # a crashing check is a failed row, not the end of the pre-flight
            message = str(error).splitlines()
            reason = f"{type(error).__name__}: {message[0]}" if message else type(error).__name__
            result = CheckResult(check.__name__, False, reason)
        rows.append(CheckResult(result.name, result.passed, result.reason, time.perf_counter() - start))
    return Report(rows)
