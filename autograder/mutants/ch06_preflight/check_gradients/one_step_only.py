# fails: test_check_gradients_hidden
# Canonical mistake: takes one optimizer step instead of three before calling a gradient zero: a branch behind two or three zero-initialised gates is flagged.
# Hint: Reread the zero verdict: how many optimizer steps, each followed by a new backward pass?
def check_gradients(flight):
    model = copy_model(flight.model).train()
    batch = flight.make_batch(flight.batch_size)
    loss = flight.loss_fn(model, batch)
    scale = abs(loss.item())
    loss.backward()
    params = dict(model.named_parameters())
    verdicts, candidates = {}, []
    for name, p in params.items():
        if p.grad is None:
            continue
        g, w = p.grad.detach().to_dense(), p.detach()   # a sparse gradient (Embedding(sparse=True)) made dense
        if not torch.isfinite(g).all():
            verdicts[name] = "non-finite gradient"
        elif not g.any():
            candidates.append(name)
        elif (g.norm() * w.norm()).item() > flight.max_ratio * scale:
            verdicts[name] = (f"exploding: ‖g‖·‖w‖ = {(g.norm() * w.norm()).item():.1e} is more than max_ratio × |L| "
                              f"= {flight.max_ratio * scale:.1e}")
    if candidates:                                # zero by design (a LoRA A, a gated branch) moves within a step
        optimizer = flight.make_optimizer(model.parameters())
        for _ in range(1):
            optimizer.step()
            optimizer.zero_grad()
            flight.loss_fn(model, batch).backward()
            candidates = [n for n in candidates if params[n].grad is None or not params[n].grad.to_dense().any()]
        for _ in range(64):                       # a router, a head per task: another batch may reach it
            if not candidates:
                break
            model.zero_grad()
            flight.loss_fn(model, flight.make_batch(flight.batch_size)).backward()
            candidates = [n for n in candidates if params[n].grad is None or not params[n].grad.to_dense().any()]
        verdicts.update({n: "zero gradient, still after 3 optimizer steps and on other batches" for n in candidates})
    failing = [n for n in params if n in verdicts]
    if failing:
        return CheckResult("gradients", False, f"{len(failing)} parameter(s) failing; first: {failing[0]}: "
                           f"{verdicts[failing[0]]}")
    return CheckResult("gradients", True, "every gradient is finite, none stays exactly zero, none explodes "
                       f"(sensitivity ‖g‖·‖w‖/|L| <= {flight.max_ratio:g})")
