def check_memory(flight):
    model = copy.deepcopy(flight.model)
    b = flight.batch_size
    sizes = []
    for n in (b, 2 * b, 3 * b):
        seen = []
        with torch.autograd.graph.saved_tensors_hooks(lambda t: seen.append(t.nbytes) or t, lambda t: t):
            flight.loss_fn(model, flight.make_batch(n))
        sizes.append(sum(seen))
    curvature = (sizes[2] - sizes[1]) - (sizes[1] - sizes[0])
    if abs(curvature) > sizes[2] / 100:
        return CheckResult("memory", False, f"saved bytes {sizes} for batches {b}, {2 * b}, {3 * b}")
    opt = flight.make_optimizer(model.parameters())
    live = weakref.WeakSet()
    for _ in range(3):
        loss = flight.loss_fn(model, flight.make_batch(b))
        live.add(loss)
        opt.zero_grad()
        loss.backward()
        opt.step()
    loss = None
    if len(live):
        return CheckResult("memory", False, f"{len(live)} losses leaked")
    return CheckResult("memory", True, "linear, no leak")
