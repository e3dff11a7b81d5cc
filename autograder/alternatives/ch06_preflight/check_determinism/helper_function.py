def _three_step_losses(flight):
    course.seed_everything(flight.seed)
    m = copy_model(flight.model)
    m.train()
    o = flight.make_optimizer(m.parameters())
    out = []
    for _ in range(3):
        l = flight.loss_fn(m, flight.make_batch(flight.batch_size))
        o.zero_grad()
        l.backward()
        o.step()
        out.append(l.item())
    return out

def check_determinism(flight):
    elsewhere = run_in_fresh_process(_three_step_losses, flight)
    here = _three_step_losses(flight)
    diffs = [i for i in range(3) if here[i] != elsewhere[i]]
    if diffs:
        i = diffs[0]
        return CheckResult("determinism", False, f"step {i}: {here[i]} != {elsewhere[i]}")
    return CheckResult("determinism", True, "identical trajectories across processes")
