def check_graph(flight):
    model = copy.deepcopy(flight.model)
    problems = []

    def unpack(pair):
        if not torch.equal(pair[0], pair[1]):
            problems.append("changed")
        return pair[0]

    with torch.autograd.graph.saved_tensors_hooks(lambda t: (t, t.detach().clone()), unpack):
        loss = flight.loss_fn(model, flight.make_batch(flight.batch_size))
    if loss.grad_fn is None:
        return CheckResult("graph", False, "no grad_fn")
    leaves, visited = [], set()

    def walk(node):
        if node is None or node in visited:
            return
        visited.add(node)
        if type(node).__name__ == "AccumulateGrad":
            leaves.append(node.variable)
        for child, _ in node.next_functions:
            walk(child)

    walk(loss.grad_fn)
    for name, p in model.named_parameters():
        if name not in flight.frozen and not p.requires_grad:
            return CheckResult("graph", False, f"frozen by accident: {name}")
    for name, p in model.named_parameters():
        if name not in flight.frozen and not any(p is leaf for leaf in leaves):
            return CheckResult("graph", False, f"unreached: {name}")
    loss.backward()
    return CheckResult("graph", not problems, "saved tensors modified in place" if problems else "ok")
