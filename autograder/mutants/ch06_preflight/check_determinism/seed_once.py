# Canonical mistake: seeds once before both runs instead of at the start of each, so the second run draws other
# numbers.
# Hint: Reread the statement: each run starts by calling `course.seed_everything(flight.seed)`.
def check_determinism(flight):
    runs = []
    course.seed_everything(flight.seed)
    for _ in range(2):
        model = copy.deepcopy(flight.model)
        optimizer = flight.make_optimizer(model.parameters())
        losses = []
        for _ in range(3):
            loss = flight.loss_fn(model, flight.make_batch(flight.batch_size))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        runs.append(losses)
    for step, (a, b) in enumerate(zip(*runs)):
        if a != b:
            return CheckResult("determinism", False, f"same seed, different losses at step {step}: {a!r} vs {b!r}")
    return CheckResult("determinism", True, f"same seed, same 3 losses: {runs[0]}")