# fails: test_check_gradients_hidden
# Canonical mistake: compares ‖g‖·‖w‖ with max_ratio · L, not |L|: a negative loss makes every gradient exploding.
# Hint: Reread the exploding rule: the limit is max_ratio times the loss's absolute value.
import copy

import torch
from course.preflight import CheckResult


def check_gradients(flight):
    model = copy_model(flight.model).train()
    batch = flight.make_batch(flight.batch_size)
    loss = flight.loss_fn(model, batch)
    L = loss.item()
    loss.backward()
    verdicts = {}
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        g = p.grad.to_dense()   # a sparse gradient (Embedding(sparse=True)) made dense
        if not torch.isfinite(g).all():
            verdicts[name] = "non-finite"
        elif (g.norm() * p.detach().norm()).item() > flight.max_ratio * L:
            verdicts[name] = "exploding"
        elif not g.any():
            verdicts[name] = "zero-candidate"
    candidates = [n for n, v in verdicts.items() if v == "zero-candidate"]
    if candidates:
        params = dict(model.named_parameters())
        still_zero = set(candidates)
        optimizer = flight.make_optimizer(model.parameters())
        for _ in range(3):
            optimizer.step()
            optimizer.zero_grad()
            flight.loss_fn(model, batch).backward()
            for n in list(still_zero):
                g = params[n].grad
                if g is not None and g.any():
                    still_zero.discard(n)
        for _ in range(64):
            if not still_zero:
                break
            model.zero_grad()
            flight.loss_fn(model, flight.make_batch(flight.batch_size)).backward()
            for n in list(still_zero):
                g = params[n].grad
                if g is not None and g.any():
                    still_zero.discard(n)
        for n in candidates:
            if n in still_zero:
                verdicts[n] = "zero"
            else:
                del verdicts[n]
    for name, _ in model.named_parameters():
        if name in verdicts:
            return CheckResult("gradients", False, f"{name}: {verdicts[name]} gradient")
    return CheckResult("gradients", True, "every gradient is finite, not exploding and not stuck at zero")
