def check_overfit(flight):
    net = copy_model(flight.model)
    net.train(True)
    opt = flight.make_optimizer(net.parameters())
    ids = set()
    try:
        groups = opt.param_groups
    except AttributeError:
        groups = None
    for group in groups or []:
        ids.update(id(t) for t in group["params"])
    batch = flight.make_batch(flight.batch_size)
    L0 = None
    k = 0
    while True:
        loss = flight.loss_fn(net, batch)
        if L0 is None:
            L0 = loss.item()
            unheld = [n for n, p in net.named_parameters()
                      if groups is not None and p.requires_grad and n not in flight.frozen and id(p) not in ids]
            if unheld:
                return CheckResult("overfit", False, f"not in the optimizer: {', '.join(unheld)}")
            if L0 <= 0 or L0 != L0:
                return CheckResult("overfit", False, f"L0 = {L0:.4g} is not positive")
            initial = [(n, p.detach().clone()) for n, p in net.named_parameters()]
            moved_by_grad = {}
        elif loss.item() <= 0.5 * L0:
            current = dict(net.named_parameters())
            for n, value in initial:
                if (moved_by_grad.get(n) and n in current and current[n].dtype not in (torch.float16, torch.bfloat16)
                        and torch.equal(current[n], value)):
                    return CheckResult("overfit", False, f"{n} is never updated although its gradient is not zero")
            return CheckResult("overfit", True, f"L_{k} = {loss.item():.4g} <= L0 / 2 = {L0 / 2:.4g}")
        if k == flight.steps:
            return CheckResult("overfit", False, f"last loss {loss.item():.4g} vs L0 {L0:.4g}")
        opt.zero_grad()
        stale = next((n for n, p in net.named_parameters()
                      if n not in flight.frozen and p.grad is not None and p.grad.abs().sum() > 0), None)
        if stale is not None:
            return CheckResult("overfit", False, f"zero_grad() did not clear {stale}")
        loss.backward()
        for n, p in net.named_parameters():
            if n not in flight.frozen and p.grad is not None and p.grad.abs().sum() > 0:
                moved_by_grad[n] = True
        opt.step()
        k += 1
