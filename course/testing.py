"""Assertions for test cells: failures name the value, the expected and actual numbers, and the tolerance.

A failure names the largest difference found (Karpathy's `cmp`: exactly equal / close / largest difference).
Values are copied out of tensors first (`.detach().cpu()`), so a test never holds on to a student's graph.
Both return None: a test cell whose last value is a number would be read by nbgrader as partial credit.
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


def expect_close(what, actual, expected, rtol=1e-5, atol=1e-8):
    """Asserts `actual` ≈ `expected` elementwise (numbers, lists or tensors of the same size)."""
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
