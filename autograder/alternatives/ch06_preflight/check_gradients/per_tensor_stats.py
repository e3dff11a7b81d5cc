def check_gradients(flight):
    model = copy.deepcopy(flight.model)
    loss = flight.loss_fn(model, flight.make_batch(flight.batch_size))
    loss.backward()
    rows = [(n, p.grad.double(), p.detach().double()) for n, p in model.named_parameters() if p.grad is not None]
    for n, g, _ in rows:
        if not bool(torch.isfinite(g).all()):
            return CheckResult("gradients", False, f"{n} has nan/inf in its gradient")
        if bool((g == 0).all()):
            return CheckResult("gradients", False, f"{n} has a gradient of exactly zero")
    r = {n: (g.pow(2).sum().sqrt() / w.pow(2).sum().sqrt()).item() for n, g, w in rows if bool((w != 0).any())}
    m = statistics.median(list(r.values()))
    worst = max(r, key=r.get)
    if r[worst] > flight.max_ratio * m:
        return CheckResult("gradients", False, f"{worst} explodes: {r[worst] / m:.3g} times the median ratio")
    return CheckResult("gradients", True, f"largest ratio {r[worst]:.3g} = {r[worst] / m:.3g} x median")
