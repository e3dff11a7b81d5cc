# Alternative style: the loop variable bound through a default argument, float() instead of .item(), and an
# __exit__ that returns None (falsy: the exception still propagates).
class GradRecorder:
    def __init__(self, model):
        self.model = model
        self.history = {}    # parameter name -> [std of .grad after each backward that wrote it]
        self.handles = []

    def __enter__(self):
        trainable = [(n, p) for n, p in self.model.named_parameters() if p.requires_grad]
        self.history.update({n: [] for n, _ in trainable})
        for n, p in trainable:
            self.handles.append(p.register_post_accumulate_grad_hook(self._make_hook(n)))
        return self

    def _make_hook(self, name):
        return lambda param, name=name: self.history[name].append(float(param.grad.std()))

    def __exit__(self, exc_type, exc, traceback):
        while self.handles:
            self.handles.pop().remove()
