def check_graph(flight):
    model = copy_model(flight.model).train()
    skip = set(map(id, model.buffers()))
    log = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: (t, t.detach().clone()),
                                                  lambda s: (log.append(id(s[0]) not in skip and not torch.equal(
                                                      torch.nan_to_num(s[0], nan=0.5), torch.nan_to_num(s[1], nan=0.5))
                                                      or bool(torch.isnan(s[0]).ne(torch.isnan(s[1])).any())), s[0])[1]):
        batch = flight.make_batch(flight.batch_size)
        loss = flight.loss_fn(model, batch)
    if loss.grad_fn is None:
        return CheckResult("graph", False, "the loss is not connected to any parameter")
    named = [(n, p) for n, p in model.named_parameters() if n not in flight.frozen]
    frozen_by_accident = [n for n, p in named if not p.requires_grad]
    if frozen_by_accident:
        return CheckResult("graph", False, f"{frozen_by_accident[0]} has requires_grad=False")
    def leaves_of(some_loss):
        leaves, todo, visited = [], [some_loss.grad_fn], set()
        while todo:
            n = todo.pop()
            if n is not None and n not in visited:
                visited.add(n)
                if type(n).__name__ == "AccumulateGrad":
                    leaves.append(n.variable)
                todo += [c for c, _ in n.next_functions]
        return leaves

    leaves = leaves_of(loss)
    reached = set(map(id, leaves))
    first_reached = set(reached)
    tries = 0
    while tries < 64 and any(id(p) not in reached for _, p in named):
        reached |= set(map(id, leaves_of(flight.loss_fn(model, flight.make_batch(flight.batch_size)))))
        tries += 1
    unreached = [n for n, p in named if id(p) not in reached]
    if unreached:
        return CheckResult("graph", False, f"{unreached[0]} is unreached")
    own = {id(p) for p in model.parameters()} | {id(t) for t in (batch if isinstance(batch, tuple) else [batch])}
    strays = [leaf for leaf in leaves if id(leaf) not in own]
    if strays:
        return CheckResult("graph", False, f"trained but not a parameter: shape {tuple(strays[0].shape)}")
    loss.backward()
    if any(log):
        return CheckResult("graph", False, "saved tensor overwritten")
    missing = [n for n, p in named if id(p) in first_reached and p.grad is None]
    if missing:
        return CheckResult("graph", False, f"{missing[0]} got no gradient")
    return CheckResult("graph", True, "ok")
