# Canonical mistake: compares only the last step's losses, so runs that differ earlier and meet again pass.
# Hint: Reread the statement: the two lists of three losses must be exactly equal, every step.
def check_determinism(flight):
    runs = []
    for _ in range(2):
        course.seed_everything(flight.seed)       # before the copy, the optimizer and every batch
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
    for step, (a, b) in list(enumerate(zip(*runs)))[-1:]:
        if a != b:
            return CheckResult("determinism", False, f"same seed, different losses at step {step}: {a!r} vs {b!r}")
    return CheckResult("determinism", True, f"same seed, same 3 losses: {runs[0]}")