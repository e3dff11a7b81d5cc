# fails: test_check_graph_hidden
# Canonical mistake: checks the saved tensors (rule 5) before the parameters (rules 2 to 4): the reason names the wrong fault.
# Hint: Reread the order of the six rules: the first that holds gives the reason.
import copy

import torch
from course.preflight import CheckResult


def check_graph(flight):
    model = copy_model(flight.model).train()
    batch = flight.make_batch(flight.batch_size)
    buffers = list(model.buffers())
    changed = []

    def pack(t):
        return t, t.detach().clone()

    def unpack(saved):
        t, kept = saved
        if not any(t is b for b in buffers):
            if not torch.allclose(t, kept, rtol=0, atol=0, equal_nan=True):
                changed.append(tuple(t.shape))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = flight.loss_fn(model, batch)
    if loss.grad_fn is None:
        return CheckResult("graph", False, "the loss has no grad_fn: nothing reaches the parameters")
    loss.backward(retain_graph=True)
    if changed:
        return CheckResult("graph", False, f"a saved tensor of shape {changed[0]} was overwritten before backward")
    named = list(model.named_parameters())
    for name, p in named:
        if name not in flight.frozen and not p.requires_grad:
            return CheckResult("graph", False, f"{name} has requires_grad=False but is not listed in frozen")
    def leaves(loss):
        found, seen, stack = [], set(), [loss.grad_fn]
        while stack:
            node = stack.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            if hasattr(node, "variable"):
                found.append(node.variable)
            stack.extend(child for child, _ in node.next_functions)
        return found

    reached = leaves(loss)
    missing = [(name, p) for name, p in named if name not in flight.frozen and not any(v is p for v in reached)]
    for _ in range(64):
        if not missing:
            break
        other = leaves(flight.loss_fn(model, flight.make_batch(flight.batch_size)))
        missing = [(name, p) for name, p in missing if not any(v is p for v in other)]
    if missing:
        return CheckResult("graph", False, f"{missing[0][0]} is never reached from the loss")
    batch_tensors = list(batch) if isinstance(batch, tuple) else [batch]
    known = [p for _, p in named] + batch_tensors
    for v in reached:
        if not any(v is k for k in known):
            return CheckResult("graph", False, f"autograd trains a tensor of shape {tuple(v.shape)} that parameters() "
                                               f"does not list")
    loss.backward()
    if changed:
        return CheckResult("graph", False, f"a saved tensor of shape {changed[0]} was overwritten before backward")
    for name, p in named:
        if name not in flight.frozen and any(v is p for v in reached) and p.grad is None:
            return CheckResult("graph", False, f"{name} is reached but no gradient arrived")
    return CheckResult("graph", True, f"{len(named)} parameters reached, nothing overwritten")
