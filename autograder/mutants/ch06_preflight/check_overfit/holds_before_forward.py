# fails: test_check_overfit_hidden
# Canonical mistake: asks whether the optimizer holds every parameter before the first forward pass: a layer made,
# or a parameter replaced, in forward is registered after that, and the optimizer never holds it.
# Hint: Reread rule 1: when are the parameters compared with the optimizer's?
def check_overfit(flight):
    model = copy_model(flight.model).train()
    optimizer = flight.make_optimizer(model.parameters())
    groups = getattr(optimizer, "param_groups", None)    # None: a wrapper that keeps its optimizer to itself
    held = {id(p) for group in groups or () for p in group["params"]}
    for name, p in model.named_parameters():
        if groups is not None and p.requires_grad and name not in flight.frozen and id(p) not in held:
            return CheckResult("overfit", False, f"{name} requires grad, but the optimizer does not hold it: it "
                               "will never change")
    batch = flight.make_batch(flight.batch_size)
    first, pushed = None, set()                   # pushed: names that got a non-zero gradient
    for k in range(flight.steps + 1):
        loss = flight.loss_fn(model, batch)
        value = loss.item()
        if first is None:
            first = value
            if not first > 0:                     # NaN too
                return CheckResult("overfit", False, f"the first loss is {first:.3g}, not above 0: half of it is "
                                   "no target (add a constant to the loss)")
            start = {name: p.detach().clone() for name, p in model.named_parameters()}
        elif value <= 0.5 * first:
            still = [name for name, p in model.named_parameters()   # float16 rounds small updates away
                     if name in pushed and name in start and p.dtype in (torch.float32, torch.float64)
                     and torch.equal(p, start[name])]
            if still:
                return CheckResult("overfit", False, f"{still[0]} got gradients but never changed in {k} updates "
                                   "(a learning rate of 0? a step() that skips it?)")
            return CheckResult("overfit", True, f"the loss fell from {first:.3g} to {value:.3g} in {k} steps")
        if k == flight.steps:                     # measured after the last update allowed: out of budget
            break
        optimizer.zero_grad()
        for name, p in model.named_parameters():
            if name not in flight.frozen and p.grad is not None and p.grad.any():
                return CheckResult("overfit", False, f"optimizer.zero_grad() left {name}.grad as it was: "
                                   "gradients pile up from step to step")
        loss.backward()
        pushed.update(name for name, p in model.named_parameters()
                      if name not in flight.frozen and p.grad is not None and p.grad.any())
        optimizer.step()
    return CheckResult("overfit", False, f"after {flight.steps} steps the loss is {value:.3g}; the first was "
                       f"{first:.3g}, and it needs to fall to half of that")
