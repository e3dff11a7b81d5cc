class _Mark:
    pass

def check_memory(flight):
    m = copy_model(flight.model).train()
    b = flight.batch_size

    batch = flight.make_batch(b)

    def saved(k):
        total = 0

        def pack(t):
            nonlocal total
            if t.dtype.is_floating_point:
                total += t.element_size() * t.nelement()
            return t.detach()

        state = torch.get_rng_state()
        torch.manual_seed(flight.seed)
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            flight.loss_fn(m, repeat_batch(batch, k))
        torch.set_rng_state(state)
        return total

    f = [saved(k) for k in (1, 2, 3)]
    if f[2] - 2 * f[1] + f[0]:
        return CheckResult("memory", False, f"saved bytes {f[0]}, {f[1]}, {f[2]} grow faster than the batch")
    optimizer = flight.make_optimizer(m.parameters())
    early = weakref.WeakSet()                      # the marks of steps 1 and 2
    for step in range(3):
        loss = flight.loss_fn(m, flight.make_batch(b))
        mark = _Mark()
        if step < 2:
            early.add(mark)
        seen, frontier = set(), [loss.grad_fn]
        while frontier:
            frontier = list(dict.fromkeys(n for n in frontier
                                          if n is not None and n not in seen and not hasattr(n, "variable")))
            for n in frontier:
                seen.add(n)
                n.metadata[id(mark)] = mark
            frontier = [c for n in frontier for c, _ in n.next_functions]
        del mark, seen, frontier
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        del loss
    gc.collect()
    if len(early):
        return CheckResult("memory", False, f"{len(early)} early graph(s) still alive")
    return CheckResult("memory", True, "linear in the batch, no graph kept")
