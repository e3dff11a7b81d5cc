# fails: test_check_overfit
# Canonical mistake: trains flight.model itself instead of a copy, so the pre-flight changes the model it checks.
# Hint: Reread the statement's first sentence: on a copy of `flight.model`.
def check_overfit(flight):
    model = flight.model
    optimizer = flight.make_optimizer(model.parameters())
    batch = flight.make_batch(flight.batch_size)
    first = None
    for k in range(flight.steps + 1):
        loss = flight.loss_fn(model, batch)
        value = loss.item()
        if first is None:
            first = value
        elif value <= 0.1 * first:
            return CheckResult("overfit", True, f"the loss fell from {first:.3g} to {value:.3g} in {k} steps")
        if k == flight.steps:                     # measured after the last update allowed: out of budget
            break
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return CheckResult("overfit", False, f"after {flight.steps} steps the loss is {value:.3g}, "
                       f"{value / first:.0%} of the first {first:.3g} (needs <= 10%)")