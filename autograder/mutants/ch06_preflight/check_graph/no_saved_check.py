# Canonical mistake: never compares the saved tensors with their copies, so a write through .data after the forward
# pass goes unseen.
# Hint: Reread rule 4 of the statement and the section's paragraph on saved tensors overwritten through `.data`.
def check_graph(flight):
    model = copy.deepcopy(flight.model)
    changed = []

    def pack(t):
        return t, t.detach().clone()

    def unpack(saved):
        t, at_save = saved
        if not torch.equal(t, at_save):
            changed.append(tuple(t.shape))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = flight.loss_fn(model, flight.make_batch(flight.batch_size))
    if loss.grad_fn is None:
        return CheckResult("graph", False, "the loss has no grad_fn: no parameter can get a gradient")
    reached, seen, stack = set(), set(), [loss.grad_fn]
    while stack:                                  # every node once, however many paths lead to it
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if hasattr(node, "variable"):             # an AccumulateGrad node: the leaf it writes .grad to
            reached.add(id(node.variable))
        stack.extend(child for child, _ in node.next_functions)
    trainable = [(n, p) for n, p in model.named_parameters() if n not in flight.frozen]
    for name, p in trainable:
        if not p.requires_grad:
            return CheckResult("graph", False, f"{name} has requires_grad=False but is not listed in frozen")
    for name, p in trainable:
        if id(p) not in reached:
            return CheckResult("graph", False, f"{name} is not reached from the loss (detached? under no_grad?)")
    loss.backward()
    if False:
        return CheckResult("graph", False, f"{len(changed)} saved tensor(s) changed after autograd saved them "
                           f"(the first shaped {changed[0]}): a write that went around the version counter")
    return CheckResult("graph", True, f"{len(trainable)} trainable parameters reached through AccumulateGrad; "
                       f"{len(flight.frozen)} frozen on purpose; no saved tensor changed")