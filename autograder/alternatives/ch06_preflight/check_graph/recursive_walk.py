def _leaves_under(node, seen, found):
    if node is None or node in seen:
        return
    seen.add(node)
    if hasattr(node, "variable"):
        found.append(node.variable)
    for child, _ in node.next_functions:
        _leaves_under(child, seen, found)

def check_graph(flight):
    model = copy_model(flight.model)
    model.train()
    exempt = [b for b in model.buffers()]
    changed = [False]

    def pack(t):
        return (t, t.detach().clone())

    def unpack(pair):
        t, before = pair
        if not any(t is b for b in exempt):
            same = (t == before) | (torch.isnan(t) & torch.isnan(before))
            if not bool(same.all()):
                changed[0] = True
        return t

    batch = flight.make_batch(flight.batch_size)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = flight.loss_fn(model, batch)
    if loss.grad_fn is None:
        return CheckResult("graph", False, "loss without grad_fn")
    leaves = []
    _leaves_under(loss.grad_fn, set(), leaves)
    for name, p in model.named_parameters():
        if name not in flight.frozen and not p.requires_grad:
            return CheckResult("graph", False, f"{name}: requires_grad is False")
    seen_somewhere = list(leaves)
    for _ in range(64):
        if all(name in flight.frozen or any(p is leaf for leaf in seen_somewhere)
               for name, p in model.named_parameters()):
            break
        _leaves_under(flight.loss_fn(model, flight.make_batch(flight.batch_size)).grad_fn, set(), seen_somewhere)
    for name, p in model.named_parameters():
        if name not in flight.frozen and not any(p is leaf for leaf in seen_somewhere):
            return CheckResult("graph", False, f"{name} cannot get a gradient")
    allowed = list(model.parameters()) + (list(batch) if isinstance(batch, tuple) else [batch])
    for leaf in leaves:
        if not any(leaf is a for a in allowed):
            return CheckResult("graph", False, f"unregistered tensor {tuple(leaf.shape)} is trained")
    loss.backward()
    if changed[0]:
        return CheckResult("graph", False, "a saved tensor was modified")
    for name, p in model.named_parameters():
        if name not in flight.frozen and any(p is leaf for leaf in leaves) and p.grad is None:
            return CheckResult("graph", False, f"{name}: backward left its .grad at None")
    return CheckResult("graph", True, "graph intact")
