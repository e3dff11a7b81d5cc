# Canonical mistake: puts a marker into the AccumulateGrad nodes too; they belong to the parameters and may
# live as long as the model or the optimizer, so a step's marker can outlive every step.
# Hint: Reread which nodes get a marker, and why the AccumulateGrad nodes do not.
def check_memory(flight):
    model = copy_model(flight.model).train()
    b = flight.batch_size
    batch = flight.make_batch(b)                  # one draw: a fresh batch may differ in more than its size

    def forward_bytes(k):
        total = [0]

        def pack(t):
            if t.is_floating_point():
                total[0] += t.numel() * t.element_size()
            return t.detach()

        with torch.random.fork_rng(), torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            torch.manual_seed(flight.seed)        # the same draws at every k: a drawn scale or layer saves alike
            flight.loss_fn(model, repeat_batch(batch, k))
        return total[0]

    f1, f2, f3 = forward_bytes(1), forward_bytes(2), forward_bytes(3)
    if f3 - f2 != f2 - f1:
        return CheckResult("memory", False, f"saved bytes at batch {b}, {2 * b}, {3 * b}: {f1}, {f2}, {f3}: "
                           "not linear in the batch size")

    class Marker:
        pass

    optimizer = flight.make_optimizer(model.parameters())
    markers = []
    for _ in range(3):
        loss = flight.loss_fn(model, flight.make_batch(b))
        marker, seen, stack = Marker(), set(), [loss.grad_fn]
        while stack:
            node = stack.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            node.metadata[id(marker)] = marker    # a key of this step's own: a node may be in several graphs
            stack.extend(child for child, _ in node.next_functions)
        markers.append(weakref.ref(marker))
        del marker                                # from now on only the graph's nodes hold it
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        del loss
    gc.collect()
    alive = sum(ref() is not None for ref in markers[:2])
    if alive:
        return CheckResult("memory", False, f"{alive} of the graphs of the first two steps still alive after the "
                           "third (a loss, a running total or outputs kept? keep loss.item(), or .detach())")
    return CheckResult("memory", True, f"{(f2 - f1) / b:.0f} saved bytes per example, linear in the batch; "
                       "no step's graph outlives the next step")
