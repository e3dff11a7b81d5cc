# fails: test_preflight_hidden
# Canonical mistake: catches BaseException, so Ctrl-C (KeyboardInterrupt) or SystemExit becomes a failed row
# instead of stopping the pre-flight.
# Hint: Reread which exceptions become a failed row: an Exception only.
import time

from course.preflight import CheckResult, Flight, Report


def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model, make_batch, loss_fn, make_optimizer, **options)
    if checks is None:
        checks = [check_gradients, check_graph, check_memory, check_overfit, check_functions, check_determinism,
                  check_ddp]
    rows = []
    for check in checks:
        start = time.perf_counter()
        try:
            result = check(flight)
        except BaseException as error:
            lines = str(error).splitlines()
            if lines:
                reason = f"{type(error).__name__}: {lines[0]}"
            else:
                reason = type(error).__name__
            result = CheckResult(check.__name__, False, reason)
        elapsed = time.perf_counter() - start
        rows.append(CheckResult(result.name, result.passed, result.reason, elapsed))
    return Report(rows)
