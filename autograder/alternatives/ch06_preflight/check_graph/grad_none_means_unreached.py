def check_graph(flight):
    model = copy.deepcopy(flight.model)
    saved, changed = [], [False]

    def pack(t):
        saved.append(t.detach().clone())
        return (t, len(saved) - 1)

    def unpack(packed):
        t, i = packed
        changed[0] = changed[0] or not torch.equal(t, saved[i])
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = flight.loss_fn(model, flight.make_batch(flight.batch_size))
    if not loss.requires_grad or loss.grad_fn is None:
        return CheckResult("graph", False, "loss has no graph")
    params = [(n, p) for n, p in model.named_parameters() if n not in flight.frozen]
    off = [n for n, p in params if not p.requires_grad]
    if off:
        return CheckResult("graph", False, f"{off[0]} does not require grad")
    # autograd.grad gives None exactly for the inputs backward cannot reach
    grads = torch.autograd.grad(loss, [p for _, p in params], allow_unused=True)
    missing = [n for (n, _), g in zip(params, grads) if g is None]
    if missing:
        return CheckResult("graph", False, f"not reached: {', '.join(missing)}")
    if changed[0]:
        return CheckResult("graph", False, "a saved tensor was modified after it was saved")
    return CheckResult("graph", True, "all reached")
