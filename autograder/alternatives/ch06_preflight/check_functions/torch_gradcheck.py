def _seeded(fn, flipped):
    def apply(*args):
        with torch.random.fork_rng():
            torch.manual_seed(0)
            out = fn.apply(*[a.clone() if torch.is_tensor(a) and a.is_floating_point() else a
                             for a in args])   # an in-place Function writes into the clones
        with torch.random.fork_rng():             # a second call before gradcheck's backward, as a second layer's
            torch.manual_seed(0)
            fn.apply(*flipped)
        return out
    return apply


def check_functions(flight):
    for fn, inputs in flight.functions:
        floats = [x for x in inputs if isinstance(x, torch.Tensor) and torch.is_floating_point(x)]
        marked = any(x.requires_grad for x in floats)
        args = tuple(x.detach().to(torch.float64, copy=True).requires_grad_(x.requires_grad or not marked)
                     if isinstance(x, torch.Tensor) and torch.is_floating_point(x) else x for x in inputs)
        flipped = [a.detach().flip(tuple(range(a.dim()))) if isinstance(a, torch.Tensor) and torch.is_floating_point(a)
                   else a for a in args]
        out = _seeded(fn, flipped)(*args)
        probe = torch.randn(out.shape, dtype=torch.float64)
        sent = probe.clone()
        torch.autograd.grad(out, [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad],
                            grad_outputs=sent, allow_unused=True)
        if not torch.equal(sent, probe):
            return CheckResult("functions", False, f"{fn.__name__}'s backward overwrites grad_output")
        if not torch.autograd.gradcheck(_seeded(fn, flipped), args, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=False):
            return CheckResult("functions", False, f"torch.autograd.gradcheck fails for {fn.__name__}")
    return CheckResult("functions", True, f"gradcheck passes for {len(flight.functions)} Function(s)")
