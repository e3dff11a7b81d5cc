# Alternative style: the std as the square root of the unbiased variance (math.sqrt of .var().item()), a nested
# hook function that reads the parameter by name from a dict built in __enter__.
class GradRecorder:
    def __init__(self, model):
        self.model = model
        self.history = {}
        self.handles = []

    def __enter__(self):
        self._params = {n: p for n, p in self.model.named_parameters() if p.requires_grad}
        for name in self._params:
            self.history[name] = []
        self.handles = [p.register_post_accumulate_grad_hook(self._make_hook(n)) for n, p in self._params.items()]
        return self

    def _make_hook(self, name):
        def record(_param):
            grad = self._params[name].grad
            self.history[name].append(math.sqrt(grad.var().item()))
        return record

    def __exit__(self, exc_type, exc, traceback):
        for h in self.handles:
            h.remove()
        self.handles = []
        return False
