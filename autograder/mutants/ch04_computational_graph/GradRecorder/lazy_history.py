# fails: test_GradRecorder_hidden
# Canonical mistake: history entries created lazily by the hook, so a parameter that never gets a gradient has none.
# Hint: Reread the `__enter__` bullet: every parameter that requires grad gets its list, also one that never gets a
# gradient.
class GradRecorder:
    def __init__(self, model):
        self.model = model
        self.history = {}
        self.handles = []

    def __enter__(self):
        for name, p in self.model.named_parameters():
            if p.requires_grad:
                self.handles.append(p.register_post_accumulate_grad_hook(self._make_hook(name)))
        return self

    def _make_hook(self, name):
        def hook(param):
            self.history.setdefault(name, []).append(param.grad.std().item())
        return hook

    def __exit__(self, exc_type, exc, traceback):
        for handle in self.handles:
            handle.remove()
        self.handles.clear()
        return False
