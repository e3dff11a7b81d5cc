"""Models the chapters train and take apart."""
import torch
from torch import nn


class MLP(nn.Sequential):
    """A multilayer perceptron: Linear layers with an activation between them (none after the last).

    `MLP([100, 512, 256, 10])` is the article's 100-512-256-10 classifier. Layers are `nn.Linear`, so
    `named_parameters()` reads `0.weight, 0.bias, 2.weight, ...`.
    """

    def __init__(self, widths, activation=nn.ReLU):
        if len(widths) < 2:
            raise ValueError(f"widths needs an input and an output size, got {widths!r}")
        layers = []
        for i, (fan_in, fan_out) in enumerate(zip(widths[:-1], widths[1:])):
            layers.append(nn.Linear(fan_in, fan_out))
            if i < len(widths) - 2:
                layers.append(activation())
        super().__init__(*layers)
        self.widths = list(widths)

    def linear_layers(self):
        """(name, module) for each Linear layer, first to last."""
        return [(name, m) for name, m in self.named_children() if isinstance(m, nn.Linear)]


def seeded(build, seed):
    """`build()` with the global RNG seeded by `seed` and restored afterwards: a model whose initial weights depend
    only on `seed`, whatever ran before."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return build()


def seeded_mlp(widths, seed, activation=nn.ReLU) -> MLP:
    """An MLP whose initial weights depend only on `seed` (the global RNG is left untouched)."""
    return seeded(lambda: MLP(widths, activation), seed)
