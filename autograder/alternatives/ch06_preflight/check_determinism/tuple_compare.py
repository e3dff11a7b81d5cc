def check_determinism(flight):
    def trajectory(f):
        course.seed_everything(f.seed)
        model = copy_model(f.model).train()
        optimizer = f.make_optimizer(model.parameters())
        result = ()
        for step in range(3):
            optimizer.zero_grad()
            loss = f.loss_fn(model, f.make_batch(f.batch_size))
            loss.backward()
            optimizer.step()
            result += (loss.item(),)
        return result

    a = run_in_fresh_process(trajectory, flight)
    b = trajectory(flight)
    if a == b:
        return CheckResult("determinism", True, "reproducible in a fresh process")
    k = next(i for i in range(3) if a[i] != b[i])
    return CheckResult("determinism", False, f"not reproducible from step {k} on ({b[k]} here vs {a[k]} there)")
