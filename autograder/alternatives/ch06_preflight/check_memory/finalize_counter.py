def check_memory(flight):
    model = copy.deepcopy(flight.model)
    b = flight.batch_size

    class Counter:
        def __init__(self):
            self.bytes = 0

        def pack(self, t):
            self.bytes += t.element_size() * t.nelement()
            return t

    def measure(n):
        c = Counter()
        with torch.autograd.graph.saved_tensors_hooks(c.pack, lambda t: t):
            flight.loss_fn(model, flight.make_batch(n))
        return c.bytes

    f = [measure(k * b) for k in (1, 2, 3)]
    if abs(f[2] - 2 * f[1] + f[0]) > 0.01 * f[2]:
        return CheckResult("memory", False, f"activations not linear in batch: {f}")
    freed = [0]
    opt = flight.make_optimizer(model.parameters())
    for _ in range(3):
        loss = flight.loss_fn(model, flight.make_batch(b))
        weakref.finalize(loss, lambda: freed.__setitem__(0, freed[0] + 1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        del loss
    leaked = 3 - freed[0]
    return CheckResult("memory", leaked == 0, f"{leaked} of 3 losses still alive" if leaked else "ok")
