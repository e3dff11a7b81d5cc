# fails: test_check_gradients_hidden
# Canonical mistake: judges a zero gradient on the one batch only: a head for a task that batch does not hold, or an expert its router skipped, is called dead.
# Hint: Reread the zero verdict: after the three steps, fresh batches get their turn before a gradient counts as zero.
def check_gradients(flight):
    model = copy_model(flight.model).train()
    batch = flight.make_batch(flight.batch_size)
    loss = flight.loss_fn(model, batch)
    limit = flight.max_ratio * abs(loss.item())   # an exploding parameter's ‖g‖·‖w‖ is above it
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
        elif (sensitivity := (g.norm() * w.norm()).item()) > limit:
            verdicts[name] = f"exploding: ‖g‖·‖w‖ = {sensitivity:.1e} is more than max_ratio × |L| = {limit:.1e}"
    if candidates:                                # zero by design (a LoRA A, a gated branch) moves within a step
        optimizer = flight.make_optimizer(model.parameters())
        for _ in range(3):
            optimizer.step()
            optimizer.zero_grad()
            flight.loss_fn(model, batch).backward()
            candidates = [n for n in candidates if params[n].grad is None or not params[n].grad.to_dense().any()]
        verdicts.update({n: "zero gradient, still after 3 optimizer steps" for n in candidates})
    failing = [n for n in params if n in verdicts]
    if failing:
        return CheckResult("gradients", False, f"{len(failing)} parameter(s) failing; first: {failing[0]}: "
                           f"{verdicts[failing[0]]}")
    return CheckResult("gradients", True, "every gradient is finite, none stays exactly zero, none explodes "
                       f"(sensitivity ‖g‖·‖w‖/|L| <= {flight.max_ratio:g})")
