import ast
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()

class Gut(ast.NodeTransformer):
    def visit_Module(self, node):
        return ast.Module(body=[ast.Pass()], type_ignores=[])

shell.ast_transformers.append(Gut())
shell.events.register("pre_run_cell", lambda *args: None)
shell.showtraceback = lambda *args, **kwargs: None
