class _StepTag:
    pass

def check_memory(flight):
    model = copy_model(flight.model)
    model.train()
    b = flight.batch_size
    one = flight.make_batch(b)
    counts = []
    for k in (1, 2, 3):
        tiled = tuple(t.repeat(k, *[1] * (t.dim() - 1)) for t in (one if isinstance(one, tuple) else (one,)))
        sizes = []
        with torch.random.fork_rng(), torch.autograd.graph.saved_tensors_hooks(
                lambda t: sizes.append(t.numel() * t.element_size() * torch.is_floating_point(t)) or t.detach(),
                lambda t: t):
            torch.manual_seed(flight.seed)
            flight.loss_fn(model, tiled if isinstance(one, tuple) else tiled[0])
        counts.append(sum(sizes))
    first, second = counts[1] - counts[0], counts[2] - counts[1]
    if second != first:
        return CheckResult("memory", False, f"bytes saved at b, 2b, 3b = {counts}: not linear")
    opt = flight.make_optimizer(model.parameters())
    dead = [False, False, False]
    for step in range(3):
        loss = flight.loss_fn(model, flight.make_batch(b))
        tag = _StepTag()
        weakref.finalize(tag, dead.__setitem__, step, True)
        nodes, todo = set(), [loss.grad_fn]
        while todo:
            node = todo.pop()
            if node is not None and node not in nodes and not hasattr(node, "variable"):
                nodes.add(node)
                node.metadata["step tag", id(tag)] = tag
                todo.extend(next_node for next_node, _ in node.next_functions)
        del tag, nodes, todo, node
        opt.zero_grad()
        loss.backward()
        opt.step()
        del loss
    gc.collect()
    alive = dead[:2].count(False)
    if alive:
        return CheckResult("memory", False, f"{alive} graph(s) from steps 1-2 survive step 3")
    return CheckResult("memory", True, "linear and nothing kept")
