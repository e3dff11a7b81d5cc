def _clones(values):
    # an in-place Function writes into these, not into the values themselves
    return [a.clone() if torch.is_tensor(a) and a.is_floating_point() else a for a in values]


def check_functions(flight):
    eps = 1e-6
    for fn, inputs in flight.functions:
        base = list(inputs)
        floats = [i for i, a in enumerate(base) if torch.is_tensor(a) and a.is_floating_point()]
        spots = [i for i in floats if base[i].requires_grad] or floats
        args = [a.detach().double() if i in floats else a for i, a in enumerate(base)]
        shape = fn.apply(*_clones(args)).shape
        w = torch.rand(shape, dtype=torch.float64, generator=torch.Generator().manual_seed(7)) + 0.5

        def scalar(values):
            with torch.random.fork_rng():
                torch.manual_seed(0)
                return (fn.apply(*_clones(values)) * w).sum()

        leaves = [a.clone().requires_grad_() if i in spots else a for i, a in enumerate(args)]
        with torch.random.fork_rng():
            torch.manual_seed(0)
            out = fn.apply(*_clones(leaves))
        scalar([a.flip(list(range(a.dim()))) if i in floats else a for i, a in enumerate(args)])   # a second layer's call
        seen = w.clone()
        auto = torch.autograd.grad(out, [leaves[i] for i in spots], grad_outputs=seen, allow_unused=True)
        if not torch.equal(seen, w):
            return CheckResult("functions", False, f"{fn.__name__} changes its grad_output in place")
        for i, g in zip(spots, auto):
            g = torch.zeros_like(args[i]) if g is None else g
            for j in range(args[i].numel()):
                step = torch.zeros(args[i].numel(), dtype=torch.float64)
                step[j] = eps
                step = step.view(args[i].shape)
                up = [a + step if k == i else a for k, a in enumerate(args)]
                down = [a - step if k == i else a for k, a in enumerate(args)]
                num = ((scalar(up) - scalar(down)) / (2 * eps)).item()
                got = g.reshape(-1)[j].item()
                if abs(got - num) > 1e-5 + 1e-3 * abs(num):
                    return CheckResult("functions", False, f"{fn.__name__} input {i} element {j}: {got} vs {num}")
    return CheckResult("functions", True, "all custom Functions match")
