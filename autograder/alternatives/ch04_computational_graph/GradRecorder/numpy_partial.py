# Alternative style: functools.partial for the per-parameter hook, the std computed by NumPy (ddof=1) in float64.
import functools

import numpy as np


class GradRecorder:
    def __init__(self, model):
        self.model = model
        self.history = {}
        self.handles = []

    def __enter__(self):
        for name, p in self.model.named_parameters():
            if p.requires_grad:
                self.history[name] = []
                handle = p.register_post_accumulate_grad_hook(self._make_hook(name))
                self.handles.append(handle)
        return self

    def _record(self, name, param):
        values = param.grad.detach().cpu().double().numpy()
        self.history[name].append(float(np.std(values, ddof=1)))

    def _make_hook(self, name):
        return functools.partial(self._record, name)

    def __exit__(self, *exc_info):
        try:
            for handle in self.handles:
                handle.remove()
        finally:
            self.handles = []
        return False
