# fails: test_check_functions_hidden
# Canonical mistake: takes autograd's gradient of the scalar sum(v · out): a backward that writes into its grad_output gets its own gradient right, and passes.
# Hint: Reread how autograd's gradient is taken: torch.autograd.grad(out, wrt, grad_outputs=g) with g = v.clone(), and g must still equal v afterwards.
def check_functions(flight):
    if not flight.functions:
        return CheckResult("functions", True, "no custom autograd Function to check")
    worst = 0.0

    def fresh(args):                              # what fn.apply gets: an in-place Function writes into these
        return [a.clone() if torch.is_tensor(a) and a.is_floating_point() else a for a in args]
    for fn, inputs in flight.functions:
        marked = any(torch.is_tensor(a) and a.is_floating_point() and a.requires_grad for a in inputs)
        args = [a.detach().to(torch.float64, copy=True).requires_grad_(a.requires_grad or not marked)
                if torch.is_tensor(a) and a.is_floating_point() else a
                for a in inputs]
        wrt = [a for a in args if torch.is_tensor(a) and a.requires_grad]
        with torch.random.fork_rng():
            torch.manual_seed(0)
            out = fn.apply(*fresh(args))
        # 0.5 +: never the draw that an example input made from seed 0 is (v = x can hide a transposed gradient)
        v = 0.5 + torch.randn(out.shape, dtype=torch.float64, generator=torch.Generator().manual_seed(0))

        def s():
            with torch.random.fork_rng():         # the same draws at every call: a Function may draw (a dropout mask)
                torch.manual_seed(0)
                return (fn.apply(*fresh(args)) * v).sum()

        flipped = [a.detach().flip(tuple(range(a.dim()))) if torch.is_tensor(a) and a.is_floating_point() else a
                   for a in args]
        with torch.random.fork_rng():             # a second call before backward, as a model's second layer makes
            torch.manual_seed(0)
            fn.apply(*flipped)
        analytic = torch.autograd.grad((out * v).sum(), wrt, allow_unused=True)
        for i, (x, g) in enumerate(zip(wrt, analytic)):
            g = torch.zeros_like(x) if g is None else g
            numeric = torch.zeros_like(x)
            flat = numeric.view(-1)
            with torch.no_grad():
                for j in range(x.numel()):
                    start = x.view(-1)[j].item()
                    x.view(-1)[j] = start + 1e-6
                    plus = s().item()
                    x.view(-1)[j] = start - 1e-6
                    minus = s().item()
                    x.view(-1)[j] = start          # put the element back before the next one
                    flat[j] = (plus - minus) / 2e-6
            gap = (g - numeric).abs()
            worst = max(worst, gap.max().item())
            if not (gap <= 1e-5 + 1e-3 * numeric.abs()).all():
                return CheckResult("functions", False, f"{fn.__name__}: tensor input {i}: largest |autograd - "
                                   f"central difference| = {gap.max().item():.1e}")
    return CheckResult("functions", True, f"{len(flight.functions)} custom Function(s) agree with float64 central "
                       f"differences (largest difference {worst:.1e})")
