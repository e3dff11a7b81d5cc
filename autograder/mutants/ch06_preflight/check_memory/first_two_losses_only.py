# fails: test_check_memory_hidden
# Canonical mistake: counts only the first two step losses as alive, so a leak of the last step goes unseen.
# Hint: Reread part 2 of the statement: the check fails if any of the three losses is still alive.
def check_memory(flight):
    model = copy.deepcopy(flight.model)
    b = flight.batch_size

    def forward_bytes(n):
        total = [0]

        def pack(t):
            total[0] += t.numel() * t.element_size()
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            flight.loss_fn(model, flight.make_batch(n))
        return total[0]

    f1, f2, f3 = forward_bytes(b), forward_bytes(2 * b), forward_bytes(3 * b)
    if abs((f3 - f2) - (f2 - f1)) > 0.01 * f3:
        return CheckResult("memory", False, f"saved bytes at batch {b}, {2 * b}, {3 * b}: {f1}, {f2}, {f3}: "
                           "not linear in the batch size")
    optimizer = flight.make_optimizer(model.parameters())
    refs = []
    for _ in range(3):
        loss = flight.loss_fn(model, flight.make_batch(b))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        refs.append(weakref.ref(loss))
        del loss                                  # ours was the last reference, unless something kept one
    alive = sum(ref() is not None for ref in refs[:2])
    if alive:
        return CheckResult("memory", False, f"{alive} of 3 step losses are still alive after their step "
                           "(kept in a list? use loss.item() for logging)")
    return CheckResult("memory", True, f"{(f2 - f1) / b:.0f} saved bytes per example, linear in the batch; "
                       "no loss outlives its step")