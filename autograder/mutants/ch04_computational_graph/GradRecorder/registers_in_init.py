# fails: test_GradRecorder_hidden
# Canonical mistake: hooks registered in __init__, so they are live before the with-block starts.
# Hint: Reread the statement's last sentence: nothing is registered before `__enter__`.
class GradRecorder:
    def __init__(self, model):
        self.model = model
        self.history = {}
        self.handles = []
        for name, p in self.model.named_parameters():
            if not p.requires_grad:
                continue
            self.history[name] = []
            self.handles.append(p.register_post_accumulate_grad_hook(self._make_hook(name)))

    def __enter__(self):
        return self

    def _make_hook(self, name):
        def hook(param):
            self.history[name].append(param.grad.detach().std().item())
        return hook

    def __exit__(self, exc_type, exc, traceback):
        for handle in self.handles:
            handle.remove()
        self.handles.clear()
        return False
