"""Pre-flight checks: what a check returns, what it is handed, the report that collects them, and healthy models.

    flight = Flight(model, make_batch, loss_fn, make_optimizer)      # what a run is made of
    result = some_check(flight)                                     # -> CheckResult(name, passed, reason)
    report = Report([result, ...])                                  # prints as a table in a notebook

A check never changes `flight.model`: it works on a copy, in training mode, as a run would (`copy_model` keeps the
gradient hooks registered on parameters, which `copy.deepcopy` drops, and copies the tensors an earlier forward pass
left in the model, which deepcopy refuses). `make_batch(batch_size)` returns a batch (a tensor or a tuple of tensors
whose first dimension is the batch; a list, as a DataLoader gives, comes back as a tuple), `loss_fn(model, batch)` a
0-dim loss tensor (chapter 6's DDP check hands it the DDP wrapper: a loss that reads the model's attributes reaches
them through `getattr(model, "module", model)`, as DDP scripts do), and `make_optimizer(params)` a `torch.optim`
optimizer over `params` whose `step()` needs no closure (L-BFGS, which needs one, is not supported).
`without_dropout()` switches dropout off in training mode, for a check that compares two forward passes (chapter 6's
DDP check).

The healthy flights at the bottom (an MLP, the tiny LLaMA-style decoder of chapters 4 and 5, a small conv net)
are sized for seconds on a CPU; chapter 6 runs every check on them and expects every check to pass.
"""
import copy
import dataclasses
import inspect
import types
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn
from torch.overrides import TorchFunctionMode

from .decoder import seeded_decoder, token_batch
from .fresh_process import slot_names_not_cached
from .models import seeded, seeded_mlp


@dataclass(frozen=True)
class CheckResult:
    """One row of a pre-flight report: the check's name, whether it passed, one line saying why, its run time."""
    name: str
    passed: bool
    reason: str
    seconds: float | None = None


@dataclass(frozen=True)
class TupleBatches:
    """`make_batch` whose list batches come back as tuples: a DataLoader collates `(x, y)` into a list, the checks
    take a tensor or a tuple, and a list sliced as a batch (`[x, y][rows]`) hands a DDP rank the whole list or none."""
    make_batch: object

    def __call__(self, n):
        batch = self.make_batch(n)
        return tuple(batch) if isinstance(batch, list) else batch


@dataclass
class Flight:
    """Everything a check needs to know about a planned run (`make_batch` is kept wrapped in `TupleBatches`).

    batch_size: the batch the checks draw with `make_batch`; steps: the overfit check's step budget; seed: the
    determinism check's seed; functions: (autograd.Function class, example inputs) pairs to gradient-check;
    frozen: names of parameters meant to stay frozen (they may have requires_grad=False, go unreached and stay
    out of the optimizer); max_ratio: how large a parameter's ‖g‖·‖w‖ may be, as a multiple of |loss|, before
    its gradient counts as exploding.
    """
    model: nn.Module
    make_batch: object
    loss_fn: object
    make_optimizer: object
    batch_size: int = 8
    steps: int = 2000
    seed: int = 0
    functions: tuple = ()
    frozen: tuple = ()
    max_ratio: float = 1e3

    def __post_init__(self):
        if not isinstance(self.make_batch, TupleBatches):
            self.make_batch = TupleBatches(self.make_batch)

    def replace(self, **changes):
        """A copy with some fields changed: `flight.replace(batch_size=4)`."""
        return dataclasses.replace(self, **changes)


class Report:
    """The results of a pre-flight run: `print(report)` or let Jupyter show it; `report.passed` is True when every
    check passed; `report["graph"]` is the row of the check named "graph"; iterating gives the rows in order."""

    def __init__(self, results):
        self.results = list(results)
        for result in self.results:
            if not isinstance(result, CheckResult):
                raise TypeError(f"a report holds CheckResult rows, got {type(result).__name__}")

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    def failed(self):
        """Names of the checks that failed, in order."""
        return [r.name for r in self.results if not r.passed]

    def __getitem__(self, name):
        for result in self.results:
            if result.name == name:
                return result
        raise KeyError(f"no check named {name!r}; the report has {', '.join(r.name for r in self.results)}")

    def __iter__(self):
        return iter(self.results)

    def __len__(self):
        return len(self.results)

    def lines(self):
        """The table as lines of text: one row per check, then a summary line."""
        width = max([len("check")] + [len(r.name) for r in self.results])
        rows = [f"{'check':{width}s}  {'result':6s}  {'seconds':>7s}  reason"]
        for r in self.results:
            seconds = f"{r.seconds:7.2f}" if r.seconds is not None else f"{'':7s}"
            rows.append(f"{r.name:{width}s}  {'pass' if r.passed else 'FAIL':6s}  {seconds}  {r.reason}")
        failed = self.failed()
        rows.append(f"{len(self.results)} checks: {len(self.results) - len(failed)} passed"
                    + (f", {len(failed)} failed ({', '.join(failed)})" if failed else ""))
        return rows

    def __str__(self):
        return "\n".join(self.lines())

    def __repr__(self):
        return str(self)

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


# Dropout in all its spellings: the modules call these, and fused attention takes its own dropout_p.
_DROPOUT_FUNCTIONS = (F.dropout, F.dropout1d, F.dropout2d, F.dropout3d, F.alpha_dropout, F.feature_alpha_dropout)
# The kernels of nn.RNN, nn.LSTM and nn.GRU: their one float argument is the dropout between layers.
_RECURRENT_KERNELS = (torch.rnn_tanh, torch.rnn_relu, torch.lstm, torch.gru)
_SDPA, _MHA = F.scaled_dot_product_attention, F.multi_head_attention_forward   # the originals, kept before patching


def _call_without_dropout(func, args, kwargs):
    """func(*args, **kwargs) with its dropout off: the input itself for a dropout function, dropout_p or the
    recurrent kernels' dropout set to 0 for a composite that takes one, any other function as it is."""
    if func in _DROPOUT_FUNCTIONS:
        return args[0] if args else kwargs["input"]
    if func is _SDPA:                              # (query, key, value, attn_mask, dropout_p, ...)
        if len(args) > 4:
            args = args[:4] + (0.0,) + args[5:]
        else:
            kwargs = {**kwargs, "dropout_p": 0.0}
    elif func is _MHA:
        bound = inspect.signature(func).bind(*args, **kwargs)
        bound.arguments["dropout_p"] = 0.0
        args, kwargs = bound.args, bound.kwargs
    elif func in _RECURRENT_KERNELS:
        args = tuple(0.0 if type(a) is float else a for a in args)
    return func(*args, **kwargs)


def _without_dropout_wrapper(func):
    def call(*args, **kwargs):
        return _call_without_dropout(func, args, kwargs)
    return call


class without_dropout(TorchFunctionMode):
    """Inside `with without_dropout():` every dropout is the identity, in training mode too: `nn.Dropout*`
    modules, `F.dropout*` calls, `F.scaled_dot_product_attention(..., dropout_p=...)`, `nn.MultiheadAttention`
    (and the Transformer layers built on it) and the dropout between the layers of `nn.RNN`, `nn.LSTM` and
    `nn.GRU`. Everything else a model does in training mode (batch statistics, stochastic depth written by hand)
    stays as it is. A function this mode intercepts runs with the mode off, so the dropout inside a composite
    (attention's, a recurrent kernel's) is switched off through its argument.

    A function mode does not reach the backward pass, where `checkpoint(..., use_reentrant=False)` runs its block
    again: there dropout would draw new masks (wrong gradients, or a CheckpointError when the saved tensors no
    longer match). So while the mode is on, the functions the modules look up at call time (`F.dropout*`,
    `F.scaled_dot_product_attention`, `F.multi_head_attention_forward`, the recurrent kernels in `torch._VF`) are
    replaced by versions without dropout too."""

    _depth = 0                                     # nested modes patch once
    _patched = [(F, func.__name__, func) for func in _DROPOUT_FUNCTIONS + (_SDPA, _MHA)] + [
        (torch._VF, func.__name__, func) for func in _RECURRENT_KERNELS]

    def __enter__(self):
        if without_dropout._depth == 0:
            for owner, name, func in self._patched:
                setattr(owner, name, _without_dropout_wrapper(func))
        without_dropout._depth += 1
        return super().__enter__()

    def __exit__(self, *exc):
        try:
            return super().__exit__(*exc)
        finally:
            without_dropout._depth -= 1
            if without_dropout._depth == 0:
                for owner, name, func in self._patched:
                    setattr(owner, name, func)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return _call_without_dropout(func, args, kwargs or {})


# ---------------------------------------------------------------- healthy models, ready to fly
class SmallConvNet(nn.Module):
    """Two 3x3 convolutions with ReLU, global average pooling and a linear classifier: images [B, C, H, W] ->
    logits [B, classes]."""

    def __init__(self, channels=1, width=8, classes=4):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, width, 3, padding=1)
        self.conv2 = nn.Conv2d(width, width, 3, padding=1)
        self.head = nn.Linear(width, classes)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        h = F.relu(self.conv2(h))
        return self.head(h.mean(dim=(2, 3)))


def copy_model(model):
    """`copy.deepcopy(model)` that also copies what deepcopy will not:
    - each parameter's gradient hooks (`p.register_hook`), registered again on its copy: deepcopy drops them, and a
      hook changes the gradient the optimizer gets (a mask, a clip, a rescale). The hooks are the original's
      functions: one that reads the model reads the original;
    - a tensor an earlier forward pass computed and the model keeps (an attention map kept for display, a forward
      hook's stored outputs, the weight of `nn.utils.spectral_norm`, the last posterior of a VAE as a
      `torch.distributions` object), copied detached: deepcopy refuses a tensor that is not a leaf, and the copy's
      own forward pass computes it again."""
    detached = {id(t): t.detach().clone() for t in _computed_tensors(model)}
    with slot_names_not_cached():
        twin = copy.deepcopy(model, detached)
    for original, copied in zip(model.parameters(), twin.parameters()):
        for hook in (original._backward_hooks or {}).values():   # torch lists a tensor's hooks nowhere public
            copied.register_hook(hook)
    return twin


def _computed_tensors(model):
    """The tensors that are not leaves among the attributes of `model`'s modules, inside lists, tuples, sets and
    dicts too, and among the attributes of the other objects found there (a distribution, a dataclass)."""
    found, seen = [], set()
    stack = [value for module in model.modules() for value in vars(module).values()]
    while stack:
        value = stack.pop()
        if id(value) in seen or isinstance(value, nn.Module):   # a module's own attributes are on the stack
            continue
        seen.add(id(value))
        if isinstance(value, torch.Tensor):
            if not value.is_leaf:
                found.append(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple, set, frozenset)):
            stack.extend(value)
        elif hasattr(value, "__dict__") and not isinstance(value, (type, types.ModuleType, types.FunctionType)):
            stack.extend(vars(value).values())
    return found


def adam(lr):
    """make_optimizer for a flight: params -> torch.optim.Adam(params, lr=lr)."""
    def make_optimizer(params):
        return torch.optim.Adam(params, lr=lr)
    return make_optimizer


def repeat_batch(batch, k):
    """The same examples k times over: every tensor of `batch` (a tensor, or a tuple of tensors whose first
    dimension is the batch) concatenated with k - 1 copies of itself along dimension 0."""
    if isinstance(batch, tuple):
        return tuple(torch.cat([t] * k) for t in batch)
    return torch.cat([batch] * k)


def classification_loss(model, batch):
    """Mean cross-entropy of model(x) against y, for a batch (x, y)."""
    x, y = batch
    return F.cross_entropy(model(x), y)


def mlp_flight(seed=0, width=32, batch_size=8):
    """An MLP 10-width-width-4 classifying random points: make_batch(n) draws n points from the global RNG."""
    def make_batch(n):
        return torch.randn(n, 10), torch.randint(0, 4, (n,))
    return Flight(seeded_mlp([10, width, width, 4], seed), make_batch, classification_loss, adam(1e-2),
                  batch_size=batch_size)


def decoder_flight(seed=0, vocab_size=16, dim=16, n_layers=1, n_heads=2, seq_len=8, batch_size=4):
    """The tiny LLaMA-style decoder on sequences of a synthetic language (course.decoder.token_batch); the
    batches are tokens [n, seq_len], drawn with a seed taken from the global RNG."""
    def make_batch(n):
        return token_batch(n, seq_len, vocab_size, seed=int(torch.randint(0, 2**31 - 1, ())))

    def loss_fn(model, tokens):
        logits = model(tokens[:, :-1])
        return F.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten())

    model = seeded_decoder(vocab_size, dim, n_layers, n_heads, seed=seed)
    return Flight(model, make_batch, loss_fn, adam(1e-2), batch_size=batch_size)


def convnet_flight(seed=0, batch_size=8, size=8):
    """SmallConvNet classifying random 1-channel size x size images into 4 classes."""
    def make_batch(n):
        return torch.randn(n, 1, size, size), torch.randint(0, 4, (n,))
    return Flight(seeded(SmallConvNet, seed), make_batch, classification_loss, adam(3e-2), batch_size=batch_size)


def healthy_flights(seed=0):
    """{"mlp": ..., "decoder": ..., "convnet": ...}: three flights every check must pass."""
    return {"mlp": mlp_flight(seed), "decoder": decoder_flight(seed), "convnet": convnet_flight(seed)}


def expect_verdict(what, result, passed, name=None, mentions=()):
    """Test helper: `result` is a CheckResult named `name` with `passed` as given and a one-line reason that
    contains every string in `mentions`; the failure message quotes the reason."""
    if not isinstance(result, CheckResult):
        raise AssertionError(f"{what}: expected a course.preflight.CheckResult, got {type(result).__name__} "
                             f"({result!r:.80})")
    if name is not None and result.name != name:
        raise AssertionError(f"{what}: expected the name {name!r}, got {result.name!r}")
    if result.passed is not passed:
        raise AssertionError(f"{what}: expected passed={passed}, got passed={result.passed!r} "
                             f"(reason: {result.reason!r})")
    if not isinstance(result.reason, str) or not result.reason.strip() or "\n" in result.reason:
        raise AssertionError(f"{what}: the reason must be one non-empty line of text, got {result.reason!r}")
    for word in mentions:
        if word not in result.reason:
            raise AssertionError(f"{what}: the reason should name {word!r}; it reads {result.reason!r}")


def expect_model_untouched(what, check, flight):
    """Test helper: runs check(flight) and fails if it changed flight.model (a parameter's or buffer's values, a
    gradient, a module's training mode); returns the check's result."""
    model = flight.model
    values = {name: t.detach().clone() for name, t in model.state_dict(keep_vars=True).items()}
    grads = {name: None if p.grad is None else p.grad.clone() for name, p in model.named_parameters()}
    modes = [m.training for m in model.modules()]
    result = check(flight)
    now = model.state_dict(keep_vars=True)
    changed = [name for name, t in values.items() if name not in now or not torch.equal(now[name].detach(), t)]
    changed += [f"{name}.grad" for name, p in model.named_parameters()
                if (p.grad is None) != (grads[name] is None)
                or (p.grad is not None and not torch.equal(p.grad, grads[name]))]
    if changed:
        raise AssertionError(f"{what}: a check works on a copy, but it changed flight.model: {', '.join(changed[:3])}")
    if [m.training for m in model.modules()] != modes:
        raise AssertionError(f"{what}: a check works on a copy, but it changed flight.model's training mode")
    return result


def expect_each_step_on_a_zeroed_gradient(what, check, flight, steps=None):
    """Test helper: runs check(flight) with an SGD that notes its first parameter's gradient at every step(), expects
    it to pass, and fails unless each step's gradient equals the first. The flight's loss must be linear in that
    parameter on a fixed batch, so the gradients differ only where a backward pass added to the last step's
    gradient (a missing zero_grad gives 1x, 2x, 3x). steps: how many steps the check must take; None: at least one.
    Returns the check's result."""
    noted = []

    class NotingSGD(torch.optim.SGD):
        def step(self, closure=None):
            noted.append(self.param_groups[0]["params"][0].grad.clone())
            return super().step(closure)

    result = check(flight.replace(make_optimizer=lambda params: NotingSGD(params, lr=0.01)))
    expect_verdict(what, result, True)
    multiples = [(g / noted[0]).nanmean().item() for g in noted]
    if not multiples or (steps is not None and len(multiples) != steps) or any(abs(m - 1) > 1e-6 for m in multiples):
        expected = "1 at each step" if steps is None else f"{[1] * steps}"
        raise AssertionError(f"{what}: the first parameter's gradient at each step the optimizer took, as a multiple "
                             f"of the first step's: expected {expected} (a loss linear in it, on one batch: each "
                             f"backward pass on a zeroed gradient), got {[round(m, 3) for m in multiples]}")
    return result
