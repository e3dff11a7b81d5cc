# Canonical mistake: returns a list [grad_x, grad_W, grad_b] where the statement asks for a tuple.
# Hint: Reread the statement: the container it returns, in its parenthesis.
def linear_backward(grad_out, x, W):
    return [grad_out @ W, grad_out.T @ x, grad_out.sum(dim=0)]
