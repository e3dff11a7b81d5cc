"""Counting the hooks that are attached to a model, so a leak is something you can see.

Hooks live in ordinary dictionaries on the objects they watch: a module keeps its forward and backward hooks,
a tensor its gradient hooks. A handle's `remove()` deletes the entry; a forgotten handle keeps the hook (and
everything its closure holds) alive and firing in the next experiment.
"""
from torch import nn


def _count(hooks):
    return len(hooks) if hooks else 0   # tensors keep None until a first hook is registered


def hook_counts(model: nn.Module) -> dict:
    """How many hooks of each kind are registered on `model`, its submodules and its parameters.

    Keys: "forward" (forward and forward-pre hooks on modules), "module_backward" (full backward and
    backward-pre hooks on modules), "tensor" (`Tensor.register_hook` on parameters), "post_accumulate"
    (`Tensor.register_post_accumulate_grad_hook` on parameters).
    """
    counts = {"forward": 0, "module_backward": 0, "tensor": 0, "post_accumulate": 0}
    for module in model.modules():
        counts["forward"] += _count(module._forward_hooks) + _count(module._forward_pre_hooks)
        counts["module_backward"] += _count(module._backward_hooks) + _count(module._backward_pre_hooks)
    for p in model.parameters():
        counts["tensor"] += _count(p._backward_hooks)
        counts["post_accumulate"] += _count(p._post_accumulate_grad_hooks)
    return counts
