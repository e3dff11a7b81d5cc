import dataclasses
import traceback

def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model=model, make_batch=make_batch, loss_fn=loss_fn, make_optimizer=make_optimizer, **options)
    chosen = [check_gradients, check_graph, check_memory, check_overfit, check_functions, check_determinism,
              check_ddp] if checks is None else list(checks)
    rows = []
    for check in chosen:
        t0 = time.perf_counter()
        try:
            row = check(flight)
        except Exception as e:
            first = traceback.format_exception_only(type(e), e)[0].strip().splitlines()[0]
            row = CheckResult(check.__name__, False, first)
        rows.append(dataclasses.replace(row, seconds=time.perf_counter() - t0))
    return Report(rows)
