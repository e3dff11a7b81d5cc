import math


def check_overfit(flight):
    model = copy_model(flight.model).train()
    optimizer = flight.make_optimizer(model.parameters())
    batch = flight.make_batch(flight.batch_size)
    losses = [flight.loss_fn(model, batch).item()]
    if hasattr(optimizer, "param_groups"):
        in_optimizer = [p for group in optimizer.param_groups for p in group["params"]]
    else:                                          # a wrapper: nothing to look into
        in_optimizer = [p for p in model.parameters()]
    for name, p in model.named_parameters():
        if p.requires_grad and name not in flight.frozen and all(p is not q for q in in_optimizer):
            return CheckResult("overfit", False, f"the optimizer is missing {name}")
    if math.isnan(losses[0]) or losses[0] <= 0:
        return CheckResult("overfit", False, f"L0 = {losses[0]:.4f}: cannot halve a loss that is not positive")
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    pushed = set()
    while len(losses) <= flight.steps:
        optimizer.zero_grad()
        leftover = [n for n, p in model.named_parameters()
                    if n not in flight.frozen and p.grad is not None and torch.count_nonzero(p.grad) > 0]
        if leftover:
            return CheckResult("overfit", False, f"gradient of {leftover[0]} survives zero_grad()")
        flight.loss_fn(model, batch).backward()
        pushed |= {n for n, p in model.named_parameters()
                   if n not in flight.frozen and p.grad is not None and p.grad.norm() > 0}
        optimizer.step()
        losses.append(flight.loss_fn(model, batch).item())
        if losses[-1] <= losses[0] / 2:
            for n, p in model.named_parameters():
                if (n in pushed and n in before and p.shape == before[n].shape and torch.finfo(p.dtype).bits >= 32
                        and not (p.detach() != before[n]).any()):
                    return CheckResult("overfit", False, f"{n} has gradients, yet step() left it unchanged")
            return CheckResult("overfit", True, f"halved after {len(losses) - 1} updates")
    return CheckResult("overfit", False, f"L0 = {losses[0]:.4f}, last loss {losses[-1]:.4f}")
