# Canonical mistake: never compares the saved tensors after backward: a write through .data passes.
# Hint: Reread rule 5: what must be compared when backward unpacks a saved tensor?
def check_graph(flight):
    model = copy_model(flight.model).train()
    buffers = {id(b) for b in model.buffers()}
    changed = []

    def pack(t):
        return t, t.detach().clone()

    def unpack(saved):
        t, at_save = saved
        if id(t) not in buffers and not torch.allclose(t.to_dense(), at_save.to_dense(), rtol=0, atol=0, equal_nan=True):
            changed.append(tuple(t.shape))
        return t

    def reached_leaves(loss):
        reached, seen, stack = {}, set(), [loss.grad_fn]
        while stack:                              # every node once, however many paths lead to it
            node = stack.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            if hasattr(node, "variable"):         # an AccumulateGrad node: the leaf it writes .grad to
                reached[id(node.variable)] = node.variable
            stack.extend(child for child, _ in node.next_functions)
        return reached

    batch = flight.make_batch(flight.batch_size)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = flight.loss_fn(model, batch)
    if loss.grad_fn is None:
        return CheckResult("graph", False, "the loss has no grad_fn: no parameter can get a gradient")
    reached = reached_leaves(loss)
    trainable = [(n, p) for n, p in model.named_parameters() if n not in flight.frozen]
    for name, p in trainable:
        if not p.requires_grad:
            return CheckResult("graph", False, f"{name} has requires_grad=False but is not listed in frozen")
    unreached = [name for name, p in trainable if id(p) not in reached]
    params = dict(trainable)
    for _ in range(64):                           # a router, a head per task, a layer skipped at random: another
        if not unreached:                         # batch may reach what this one did not
            break
        other = reached_leaves(flight.loss_fn(model, flight.make_batch(flight.batch_size)))
        unreached = [name for name in unreached if id(params[name]) not in other]
    if unreached:
        return CheckResult("graph", False, f"{unreached[0]} is not reached from the loss of any of 65 batches "
                           "(detached? under no_grad?)")
    known = {id(p) for p in model.parameters()} | {id(t) for t in (batch if isinstance(batch, tuple) else (batch,))}
    strays = [t for key, t in reached.items() if key not in known]
    if strays:
        return CheckResult("graph", False, f"{len(strays)} tensor(s) trained by autograd are not parameters of the "
                           f"model, the first shaped {tuple(strays[0].shape)} (a plain tensor attribute? layers "
                           "in a Python list?)")
    loss.backward()
    missing = [name for name, p in trainable if id(p) in reached and p.grad is None]
    if missing:
        return CheckResult("graph", False, f"{missing[0]} is reached but got no gradient (a custom backward that "
                           "returned None for it?)")
    return CheckResult("graph", True, f"{len(trainable)} trainable parameters reached through AccumulateGrad, "
                       f"nothing else trained; {len(flight.frozen)} frozen on purpose; no saved tensor changed")
