def check_gradients(flight):
    model = copy_model(flight.model).train()
    names = [n for n, _ in model.named_parameters()]
    params = [p for _, p in model.named_parameters()]
    batch = flight.make_batch(flight.batch_size)
    loss = flight.loss_fn(model, batch)
    L = loss.item()
    trainable = [p for p in params if p.requires_grad]
    grads = dict(zip(map(id, trainable), torch.autograd.grad(loss, trainable, allow_unused=True)))
    problems = {}
    zero_now = []
    for name, p in zip(names, params):
        g = grads.get(id(p))
        if g is None:
            continue
        g = g.to_dense()   # a sparse gradient (Embedding(sparse=True)) as the statement says
        if not torch.isfinite(g).all():
            problems[name] = "non-finite gradient"
        elif (g == 0).all():
            zero_now.append(name)
        elif float(g.norm()) * float(p.detach().norm()) / abs(L) > flight.max_ratio:
            problems[name] = "exploding gradient"
    if zero_now:
        # the optimizer needs .grad: hand it the gradients autograd.grad returned
        for p in trainable:
            p.grad = None if grads[id(p)] is None else grads[id(p)].clone()
        optimizer = flight.make_optimizer(model.parameters())
        by_name = dict(zip(names, params))
        still = set(zero_now)
        for _ in range(3):
            optimizer.step()
            optimizer.zero_grad()
            flight.loss_fn(model, batch).backward()
            still &= {n for n in still if by_name[n].grad is None or not by_name[n].grad.to_dense().any()}
        tries = 0
        while still and tries < 64:
            for p in params:
                p.grad = None
            flight.loss_fn(model, flight.make_batch(flight.batch_size)).backward()
            still = {n for n in still if by_name[n].grad is None or not by_name[n].grad.to_dense().any()}
            tries += 1
        problems.update({n: "zero gradient" for n in still})
    first = next((n for n in names if n in problems), None)
    if first is None:
        return CheckResult("gradients", True, "no non-finite, zero or exploding gradient")
    return CheckResult("gradients", False, f"first failing parameter {first}: {problems[first]}")
