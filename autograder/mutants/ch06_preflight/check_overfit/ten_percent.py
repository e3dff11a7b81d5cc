# Canonical mistake: asks for a tenth of the first loss, the folklore's 'close to zero': a healthy model with label smoothing fails.
# Hint: Reread when the check passes: some L_k <= 0.5 * L0.
def check_overfit(flight):
    model = copy_model(flight.model).train()
    optimizer = flight.make_optimizer(model.parameters())
    groups = getattr(optimizer, "param_groups", None)    # None: a wrapper that keeps its optimizer to itself
    held = {id(p) for group in groups or () for p in group["params"]}
    batch = flight.make_batch(flight.batch_size)
    first, pushed = None, set()                   # pushed: names that got a non-zero gradient
    for k in range(flight.steps + 1):
        loss = flight.loss_fn(model, batch)
        value = loss.item()
        if first is None:                         # after the first forward pass, which may have made parameters
            first = value
            for name, p in model.named_parameters():
                if groups is not None and p.requires_grad and name not in flight.frozen and id(p) not in held:
                    return CheckResult("overfit", False, f"{name} requires grad, but the optimizer does not hold "
                                       "it: it will never change")
            if not first > 0:                     # NaN too
                return CheckResult("overfit", False, f"the first loss is {first:.3g}, not above 0: half of it is "
                                   "no target (add a constant to the loss)")
            start = {name: p.detach().clone() for name, p in model.named_parameters()}
        elif value <= 0.1 * first:
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
    return CheckResult("overfit", False, f"after {flight.steps} steps the loss is {value:.3g}, "
                       f"{value / first:.0%} of the first {first:.3g} (needs <= 50%)")
