# fails: test_GradRecorder_hidden
# Canonical mistake: __exit__ returns True, which silently swallows any exception raised inside the with-block.
# Hint: Reread the `__exit__` bullet: let exceptions propagate, and what to return.
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
        for handle in self.handles:
            handle.remove()
        self.handles.clear()
        return True
