def check_determinism(flight):
    trajectories = []
    for attempt in range(2):
        course.seed_everything(flight.seed)
        model = copy.deepcopy(flight.model)
        optimizer = flight.make_optimizer(model.parameters())
        trajectory = ()
        for step in range(3):
            optimizer.zero_grad()
            loss = flight.loss_fn(model, flight.make_batch(flight.batch_size))
            loss.backward()
            optimizer.step()
            trajectory += (loss.item(),)
        trajectories.append(trajectory)
    a, b = trajectories
    if a == b:
        return CheckResult("determinism", True, "reproducible")
    k = next(i for i in range(3) if a[i] != b[i])
    return CheckResult("determinism", False, f"not reproducible from step {k} on ({a[k]} vs {b[k]})")
