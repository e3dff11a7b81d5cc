# Canonical mistake: a lambda in the loop captures the loop variable, so every hook records under the last name.
# Hint: Reread the `_make_hook` bullet and its parenthesis about a lambda inside the loop.
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
            self.handles.append(p.register_post_accumulate_grad_hook(
                lambda param: self.history[name].append(param.grad.detach().std().item())))
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
