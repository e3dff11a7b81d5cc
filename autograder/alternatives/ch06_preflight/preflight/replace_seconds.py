import dataclasses

def preflight(model, make_batch, loss_fn, make_optimizer, *, checks=None, **options):
    flight = Flight(model, make_batch, loss_fn, make_optimizer, **options)
    checks = list(checks) if checks is not None else [check_gradients, check_graph, check_memory, check_overfit,
                                                      check_functions, check_determinism, check_ddp]
    rows = []
    for check in checks:
        t0 = time.perf_counter()
        try:
            row = check(flight)
        except Exception as err:
            text = str(err)
            row = CheckResult(check.__name__, False,
                              type(err).__name__ + (": " + text.split("\n")[0] if text else ""))
        rows.append(dataclasses.replace(row, seconds=time.perf_counter() - t0))
    return Report(rows)
