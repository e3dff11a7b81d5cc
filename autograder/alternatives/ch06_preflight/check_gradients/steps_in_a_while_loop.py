import math

def check_gradients(flight):
    model = copy_model(flight.model)
    model.train()
    batch = flight.make_batch(flight.batch_size)
    loss = flight.loss_fn(model, batch)
    size = math.fabs(loss.item())
    loss.backward()
    kind = {}
    silent = set()
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        g = p.grad.to_dense()
        if torch.isnan(g).any() or torch.isinf(g).any():
            kind[name] = "non-finite"
        elif torch.count_nonzero(g) == 0:
            silent.add(name)
        elif torch.linalg.vector_norm(g).item() * torch.linalg.vector_norm(p.detach()).item() > flight.max_ratio * size:
            kind[name] = "exploding"
    if silent:
        opt = flight.make_optimizer(model.parameters())
        lookup = dict(model.named_parameters())
        step = 0
        while step < 3 and silent:
            opt.step()
            opt.zero_grad()
            flight.loss_fn(model, batch).backward()
            silent = {n for n in silent if lookup[n].grad is None or torch.count_nonzero(lookup[n].grad.to_dense()) == 0}
            step += 1
        for _ in range(64):
            if not silent:
                break
            model.zero_grad(set_to_none=False)
            flight.loss_fn(model, flight.make_batch(flight.batch_size)).backward()
            silent = {n for n in silent if lookup[n].grad is None or torch.count_nonzero(lookup[n].grad.to_dense()) == 0}
        for n in silent:
            kind[n] = "zero"
    for name, _ in model.named_parameters():
        if name in kind:
            return CheckResult("gradients", False, f"{name} is {kind[name]}")
    return CheckResult("gradients", True, "healthy")
