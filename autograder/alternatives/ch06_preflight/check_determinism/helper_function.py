def check_determinism(flight):
    def run():
        course.seed_everything(flight.seed)
        m = copy.deepcopy(flight.model)
        o = flight.make_optimizer(m.parameters())
        out = []
        for _ in range(3):
            l = flight.loss_fn(m, flight.make_batch(flight.batch_size))
            out.append(float(l.detach()))
            o.zero_grad()
            l.backward()
            o.step()
        return out

    first, second = run(), run()
    diffs = [i for i in range(3) if first[i] != second[i]]
    if diffs:
        i = diffs[0]
        return CheckResult("determinism", False, f"step {i}: {first[i]} != {second[i]}")
    return CheckResult("determinism", True, "identical trajectories")
