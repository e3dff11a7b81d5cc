# Canonical mistake: __exit__ forgets the handles, so the hooks stay on the model and keep recording.
# Hint: Reread the `__exit__` bullet and the statement's last sentence.
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
            self.history[name].append(param.grad.detach().std().item())
        return hook

    def __exit__(self, exc_type, exc, traceback):
        return False
