# fails: test_check_determinism_hidden
# Canonical mistake: compares the losses with math.isclose (a relative tolerance of 1e-9): float64 losses that differ in
# their last digits pass.
# Hint: Reread the comparison: exactly equal (==).
def check_determinism(flight):
    def three_losses(flight):
        course.seed_everything(flight.seed)       # before the copy, the optimizer and every batch
        model = copy_model(flight.model).train()
        optimizer = flight.make_optimizer(model.parameters())
        losses = []
        for _ in range(3):
            loss = flight.loss_fn(model, flight.make_batch(flight.batch_size))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses

    there = run_in_fresh_process(three_losses, flight)   # first: the flight travels as it is now
    here = three_losses(flight)
    for step, (a, b) in enumerate(zip(here, there)):
        if not math.isclose(a, b):
            return CheckResult("determinism", False, f"same seed, different losses at step {step}: {a!r} here, "
                               f"{b!r} in a fresh process")
    return CheckResult("determinism", True, f"same seed, same 3 losses here and in a fresh process: {here}")
