"""Assertions for test cells: failures name the value, the expected and actual numbers, and the tolerance.

A failure names the largest difference found (Karpathy's `cmp`: exactly equal / close / largest difference).
Values are copied out of tensors first (`.detach().cpu()`), so a test never holds on to a student's graph.
All return None: a test cell whose last value is a number would be read by nbgrader as partial credit.

`expect_close` compares values only (it flattens lists and tensors), and its tolerances have no defaults: a test
states how close is close, tighter than the effect it must detect. What a statement demands beyond the values —
a type ("a Python float"), a shape ("shaped like x") — is checked with `expect_type` and `expect_shape`.
"""
import math

import torch


def _as_float_list(value):
    if isinstance(value, torch.Tensor):
        return [float(v) for v in value.detach().cpu().double().flatten().tolist()]
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out.extend(_as_float_list(v))
        return out
    return [float(value)]


def _close(a, b, rtol, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def expect_close(what, actual, expected, *, rtol, atol):
    """Asserts |actual − expected| <= atol + rtol·|expected| elementwise (numbers, lists or tensors of the same
    number of values)."""
    got, want = _as_float_list(actual), _as_float_list(expected)
    if len(got) != len(want):
        raise AssertionError(f"{what}: expected {len(want)} values, got {len(got)}")
    failing = [i for i, (g, w) in enumerate(zip(got, want)) if not _close(g, w, rtol, atol)]
    if not failing:
        return
    worst = max(failing, key=lambda i: abs(got[i] - want[i]) if math.isfinite(got[i] - want[i]) else math.inf)
    where = f" at index {worst}" if len(got) > 1 else ""
    raise AssertionError(
        f"{what}: expected {want[worst]:.6g}{where}, got {got[worst]:.6g} "
        f"(difference {abs(got[worst] - want[worst]):.2e}; allowed {atol:.0e} + {rtol:.0e}·|expected|; "
        f"{len(failing)} of {len(got)} values outside)")


def _same(actual, expected):
    """Equal values of exactly the same types, compared with the expected side's own `==`.

    Exact types matter: an object whose class overrides `__eq__` to return True equals anything.
    """
    if type(actual) is not type(expected):
        return False
    if isinstance(expected, (list, tuple)):
        return len(actual) == len(expected) and all(_same(a, e) for a, e in zip(actual, expected))
    if isinstance(expected, dict):
        return _same(list(actual), list(expected)) and all(_same(actual[k], expected[k]) for k in expected)
    return expected == actual


def expect_equal(what, actual, expected):
    """Asserts `actual` equals `expected` and has the same type (containers element by element)."""
    if not _same(actual, expected):
        raise AssertionError(f"{what}: expected {expected!r} ({type(expected).__name__}), "
                             f"got {actual!r} ({type(actual).__name__})")


def _type_names(types) -> str:
    return " or ".join(t.__module__ + "." + t.__qualname__ if t.__module__ != "builtins" else t.__qualname__
                       for t in types)


def expect_type(what, actual, *types):
    """Asserts `actual` is an instance of one of `types` (subclasses count: a NumPy float64 is a float)."""
    if not isinstance(actual, types):
        raise AssertionError(f"{what}: expected a {_type_names(types)}, got {type(actual).__module__}."
                             f"{type(actual).__qualname__} ({actual!r:.80})")


def expect_shape(what, actual, shape):
    """Asserts `actual` is a torch.Tensor of exactly `shape` (a tuple, a list or a torch.Size)."""
    expect_type(what, actual, torch.Tensor)
    if tuple(actual.shape) != tuple(shape):
        raise AssertionError(f"{what}: expected shape {tuple(shape)}, got {tuple(actual.shape)}")
