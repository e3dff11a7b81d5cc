def _run_one(check, flight):
    began = time.perf_counter()
    try:
        out = check(flight)
    except Exception as exc:
        text = str(exc)
        why = type(exc).__name__ + (": " + text.split("\n")[0] if text else "")
        out = CheckResult(check.__name__, False, why)
    return CheckResult(out.name, out.passed, out.reason, seconds=time.perf_counter() - began)

def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model, make_batch, loss_fn, make_optimizer, **options)
    default = (check_gradients, check_graph, check_memory, check_overfit, check_functions, check_determinism, check_ddp)
    return Report([_run_one(c, flight) for c in (default if checks is None else checks)])
