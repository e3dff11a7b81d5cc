def check_overfit(flight):
    net = copy.deepcopy(flight.model)
    optimizer = flight.make_optimizer(net.parameters())
    data = flight.make_batch(flight.batch_size)
    start = flight.loss_fn(net, data).item()
    k, current = 0, start
    while k < flight.steps:
        optimizer.zero_grad()
        flight.loss_fn(net, data).backward()
        optimizer.step()
        k += 1
        current = flight.loss_fn(net, data).item()
        if current <= start / 10:
            return CheckResult("overfit", True, f"{start:.4g} -> {current:.4g} after {k} updates")
    return CheckResult("overfit", False, f"stuck at {current:.4g} (started at {start:.4g})")
