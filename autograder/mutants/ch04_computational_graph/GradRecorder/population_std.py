# Canonical mistake: the population std (correction=0) instead of the sample std the statement asks for.
# Hint: Reread the `__enter__` bullet: which standard deviation, as `torch.std`'s default.
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
            self.handles.append(p.register_post_accumulate_grad_hook(self._make_hook(name)))
        return self

    def _make_hook(self, name):
        def hook(param):
            self.history[name].append(param.grad.std(correction=0).item())
        return hook

    def __exit__(self, exc_type, exc, traceback):
        for handle in self.handles:
            handle.remove()
        self.handles.clear()
        return False
