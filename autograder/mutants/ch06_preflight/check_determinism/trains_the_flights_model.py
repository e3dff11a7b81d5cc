# fails: test_check_determinism_hidden
# Canonical mistake: trains flight.model itself, not a copy: the check changes the model it is handed.
# Hint: Reread what the run trains: a fresh copy of flight.model.
import copy

import course
from course.fresh_process import run_in_fresh_process
from course.preflight import CheckResult


def determinism_run(flight):
    course.seed_everything(flight.seed)
    model = flight.model.train()
    optimizer = flight.make_optimizer(model.parameters())
    losses = []
    for _ in range(3):
        loss = flight.loss_fn(model, flight.make_batch(flight.batch_size))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def check_determinism(flight):
    there = run_in_fresh_process(determinism_run, flight)
    here = determinism_run(flight)
    if there == here:
        return CheckResult("determinism", True, f"identical losses in a fresh process and here: {here}")
    for step, (a, b) in enumerate(zip(there, here)):
        if a != b:
            return CheckResult("determinism", False, f"the losses first differ at step {step}: {a!r} in a fresh "
                                                     f"process, {b!r} here")
    return CheckResult("determinism", False, f"the runs differ: {there} vs {here}")
