# Canonical mistake: gives the exception's message as the reason, without its class name.
# Hint: Reread the third bullet: the class name, then ": ", then the first line of the message.
def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model, make_batch, loss_fn, make_optimizer, **options)
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
            reason = message[0] if message else type(error).__name__
            result = CheckResult(check.__name__, False, reason)
        rows.append(CheckResult(result.name, result.passed, result.reason, time.perf_counter() - start))
    return Report(rows)
