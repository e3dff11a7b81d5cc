def _timed_row(check, flight):
    started = time.perf_counter()
    try:
        result = check(flight)
    except Exception as problem:
        lines = str(problem).splitlines()
        result = CheckResult(check.__name__, False,
                             f"{problem.__class__.__name__}: {lines[0]}" if lines else problem.__class__.__name__)
    return CheckResult(result.name, result.passed, result.reason, float(time.perf_counter() - started))

def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model, make_batch, loss_fn, make_optimizer, **options)
    if checks is None:
        checks = [check_gradients, check_graph, check_memory, check_overfit, check_functions, check_determinism,
                  check_ddp]
    return Report([_timed_row(check, flight) for check in checks])
