# Canonical mistake: compares each loss with the previous one instead of the loss before any update.
# Hint: Reread the statement: `Lk` is compared with `L0`, the loss before any update.
def check_overfit(flight):
    model = copy.deepcopy(flight.model)
    optimizer = flight.make_optimizer(model.parameters())
    batch = flight.make_batch(flight.batch_size)
    first = None
    for k in range(flight.steps + 1):
        loss = flight.loss_fn(model, batch)
        value = loss.item()
        if first is None:
            first = previous = value
        elif value <= 0.1 * previous:
            return CheckResult("overfit", True, f"the loss fell from {first:.3g} to {value:.3g} in {k} steps")
        previous = value
        if k == flight.steps:                     # measured after the last update allowed: out of budget
            break
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return CheckResult("overfit", False, f"after {flight.steps} steps the loss is {value:.3g}, "
                       f"{value / first:.0%} of the first {first:.3g} (needs <= 10%)")