# Canonical mistake: no check for gradients that are exactly zero, so a parameter that learns nothing passes.
# Hint: Reread the second bullet of the statement: a gradient whose every element is exactly 0.
def check_gradients(flight):
    model = copy.deepcopy(flight.model)
    flight.loss_fn(model, flight.make_batch(flight.batch_size)).backward()
    ratios, problems = {}, []
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        g, w = p.grad.detach(), p.detach()
        if not torch.isfinite(g).all():
            problems.append(f"{name}: gradient is not finite")
        elif w.any():
            ratios[name] = (g.norm() / w.norm()).item()
    median = statistics.median(ratios.values()) if ratios else 0.0
    for name, r in ratios.items():
        if r > flight.max_ratio * median:
            problems.append(f"{name}: ‖g‖/‖w‖ = {r:.1e} is {r / median:.0f}x the median {median:.1e} (exploding)")
    if problems:
        return CheckResult("gradients", False, f"{len(problems)} problem(s); first: {problems[0]}")
    return CheckResult("gradients", True, f"{len(ratios)} parameters, ‖g‖/‖w‖ from {min(ratios.values()):.1e} "
                       f"to {max(ratios.values()):.1e} (median {median:.1e})")