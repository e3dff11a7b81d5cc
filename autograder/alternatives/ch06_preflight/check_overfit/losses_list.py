def check_overfit(flight):
    model = copy.deepcopy(flight.model)
    batch = flight.make_batch(flight.batch_size)
    opt = flight.make_optimizer(model.parameters())
    values = []
    for k in range(flight.steps + 1):
        loss = flight.loss_fn(model, batch)
        values.append(loss.item())
        if k > 0 and values[-1] <= 0.1 * values[0]:
            break
        if k < flight.steps:
            opt.zero_grad()
            loss.backward()
            opt.step()
    ok = len(values) > 1 and values[-1] <= 0.1 * values[0]
    return CheckResult("overfit", ok, f"losses {values[0]:.3f} -> {values[-1]:.3f} in {len(values) - 1} steps")
