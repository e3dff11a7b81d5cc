# fails: test_check_gradients_hidden
# Canonical mistake: judges "exploding" after the probe steps of the zero rule, with the weights those steps moved: a parameter near the threshold changes its verdict because another one started at zero.
# Hint: Reread which weights the exploding verdict uses: g and w as they are after the first backward pass, before any optimizer step.
def check_gradients(flight):
    model = copy_model(flight.model).train()
    batch = flight.make_batch(flight.batch_size)
    loss = flight.loss_fn(model, batch)
    limit = flight.max_ratio * abs(loss.item())
    loss.backward()
    params = dict(model.named_parameters())
    first = {name: p.grad.detach().to_dense().clone() for name, p in params.items() if p.grad is not None}
    verdicts, candidates = {}, []
    for name, g in first.items():
        if not torch.isfinite(g).all():
            verdicts[name] = "non-finite gradient"
        elif not g.any():
            candidates.append(name)
    if candidates:
        optimizer = flight.make_optimizer(model.parameters())
        for _ in range(3):
            optimizer.step()
            optimizer.zero_grad()
            flight.loss_fn(model, batch).backward()
            candidates = [n for n in candidates if params[n].grad is None or not params[n].grad.to_dense().any()]
        for _ in range(64):
            if not candidates:
                break
            model.zero_grad()
            flight.loss_fn(model, flight.make_batch(flight.batch_size)).backward()
            candidates = [n for n in candidates if params[n].grad is None or not params[n].grad.to_dense().any()]
        verdicts.update({n: "zero gradient, still after 3 optimizer steps and on other batches" for n in candidates})
    for name, g in first.items():                 # the weights as the probe steps left them
        sensitivity = (g.norm() * params[name].detach().norm()).item()
        if name not in verdicts and g.any() and sensitivity > limit:
            verdicts[name] = f"exploding: ‖g‖·‖w‖ = {sensitivity:.1e} is more than max_ratio × |L| = {limit:.1e}"
    failing = [n for n in params if n in verdicts]
    if failing:
        return CheckResult("gradients", False, f"{len(failing)} parameter(s) failing; first: {failing[0]}: "
                           f"{verdicts[failing[0]]}")
    return CheckResult("gradients", True, "every gradient is finite, none stays exactly zero, none explodes "
                       f"(sensitivity ‖g‖·‖w‖/|L| <= {flight.max_ratio:g})")
