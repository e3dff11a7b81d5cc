# fails: test_check_determinism_hidden
# Canonical mistake: tests the difference of the two losses instead of comparing them: NaN - NaN is NaN, and NaN > 0
# is False, so a run that turns NaN at the same step in both processes passes.
# Hint: Reread the comparison: exactly equal (==), and what the statement says of a NaN loss.
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
        if abs(a - b) > 0:
            return CheckResult("determinism", False, f"same seed, different losses at step {step}: {a!r} here, "
                               f"{b!r} in a fresh process")
    return CheckResult("determinism", True, f"same seed, same 3 losses here and in a fresh process: {here}")
