# Canonical mistake: lets an exception in a check end the pre-flight.
# Hint: Reread the third bullet: a check that raises becomes a failed row.
def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model, make_batch, loss_fn, make_optimizer, **options)
    if checks is None:
        checks = (check_gradients, check_graph, check_memory, check_overfit, check_functions, check_determinism,
                  check_ddp)
    rows = []
    for check in checks:
        start = time.perf_counter()
        result = check(flight)
        rows.append(CheckResult(result.name, result.passed, result.reason, time.perf_counter() - start))
    return Report(rows)
