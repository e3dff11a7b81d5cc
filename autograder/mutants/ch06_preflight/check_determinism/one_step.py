# fails: test_check_determinism_hidden
# Canonical mistake: each run takes one step instead of three, so randomness that first acts at a later step goes
# unseen.
# Hint: Reread the statement: each run takes three steps.
def check_determinism(flight):
    runs = []
    for _ in range(2):
        course.seed_everything(flight.seed)       # before the copy, the optimizer and every batch
        model = copy.deepcopy(flight.model)
        optimizer = flight.make_optimizer(model.parameters())
        losses = []
        for _ in range(1):
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