# Canonical mistake: a tensor hook (register_hook) records the incoming gradient, before it is added to .grad.
# Hint: Reread the `__enter__` bullet: which hook, and the paragraph above the exercise on reading a parameter's
# gradient.
class GradRecorder:
    def __init__(self, model):
        self.model = model
        self.history = {}
        self.handles = []

    def __enter__(self):
        for name, p in self.model.named_parameters():
            if not p.requires_grad:
                continue
            self.history[name] = []
            self.handles.append(p.register_hook(self._make_hook(name)))
        return self

    def _make_hook(self, name):
        def hook(grad):
            self.history[name].append(grad.detach().std().item())
        return hook

    def __exit__(self, exc_type, exc, traceback):
        for handle in self.handles:
            handle.remove()
        self.handles.clear()
        return False
