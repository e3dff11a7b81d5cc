# fails: test_check_functions_hidden
# Canonical mistake: swaps the tolerances, 1e-3 + 1e-5 · |numeric|: small gradients that are wrong pass.
# Hint: Reread the agreement rule: 1e-5 + 1e-3 · |numeric|.
import torch
from course.preflight import CheckResult


def _prepare(inputs):
    marked = any(isinstance(a, torch.Tensor) and a.is_floating_point() and a.requires_grad for a in inputs)
    args = []
    for a in inputs:
        if isinstance(a, torch.Tensor) and a.is_floating_point():
            args.append(a.detach().to(torch.float64).clone().requires_grad_(a.requires_grad or not marked))
        else:
            args.append(a)
    return args


def _applied(fn, args):
    with torch.random.fork_rng():                 # every call draws alike: a Function may draw (a dropout mask)
        torch.manual_seed(0)
        return fn.apply(*[a.clone() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                          for a in args])   # an in-place Function writes into the clones


def _agrees(fn, inputs, eps=1e-6):
    args = _prepare(inputs)
    tensors = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor) and a.requires_grad]
    out = _applied(fn, args)
    # 0.5 +: never the draw that an example input made from seed 0 is (v = x can hide a transposed gradient)
    v = 0.5 + torch.randn(out.shape, dtype=torch.float64,
                          generator=torch.Generator().manual_seed(0))
    scalar = (out * v).sum()
    _applied(fn, [a.detach().flip(tuple(range(a.dim()))) if isinstance(a, torch.Tensor) and a.is_floating_point()
                  else a for a in args])        # a second call before backward, as a model's second layer makes
    analytic = torch.autograd.grad(scalar, [args[i] for i in tensors], allow_unused=True)
    with torch.no_grad():
        for slot, i in enumerate(tensors):
            x = args[i]
            a_grad = analytic[slot] if analytic[slot] is not None else torch.zeros_like(x)
            numeric = torch.zeros_like(x)
            flat = numeric.view(-1)
            for j in range(x.numel()):
                shifted = list(args)
                plus = x.detach().clone()
                plus.view(-1)[j] += eps
                minus = x.detach().clone()
                minus.view(-1)[j] -= eps
                shifted[i] = plus
                s_plus = (_applied(fn, shifted) * v).sum()
                shifted[i] = minus
                s_minus = (_applied(fn, shifted) * v).sum()
                flat[j] = (s_plus - s_minus) / (2 * eps)
            if not ((a_grad - numeric).abs() <= 1e-3 + 1e-5 * numeric.abs()).all():
                return False
    return True


def check_functions(flight):
    for fn, inputs in flight.functions:
        if not _agrees(fn, inputs):
            return CheckResult("functions", False, f"{fn.__name__}: backward disagrees with central differences")
    return CheckResult("functions", True, f"{len(flight.functions)} Function(s) agree with central differences")
