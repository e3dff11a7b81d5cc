# fails: test_preflight_hidden
# Canonical mistake: names a raising check's row without its check_ prefix.
# Hint: Reread how a raising check's row is named: check.__name__, whole.
import dataclasses
import time

from course.preflight import CheckResult, Flight, Report


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
        except Exception as error:
            lines = str(error).splitlines()
            reason = f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__
            result = CheckResult(check.__name__.removeprefix("check_"), False, reason)
        rows.append(dataclasses.replace(result, seconds=time.perf_counter() - start))
    return Report(rows)
