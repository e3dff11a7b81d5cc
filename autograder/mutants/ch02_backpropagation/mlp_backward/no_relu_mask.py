# Canonical mistake: passes the gradient straight through the ReLUs (forgets the mask of relu_backward).
# Hint: Reread the network's forward pass in the statement: every layer but the last goes through a ReLU.
def mlp_backward(params, x, y):
    inputs, h = [], x
    for i, (W, b) in enumerate(params):
        inputs.append(h)
        z = h @ W.T + b
        h = torch.relu(z) if i < len(params) - 1 else z
    g = (torch.softmax(h, dim=1) - F.one_hot(y, h.shape[1]).to(h.dtype)) / x.shape[0]
    grads = [None] * len(params)
    for i in reversed(range(len(params))):
        W, _ = params[i]
        grads[i] = (g.T @ inputs[i], g.sum(dim=0))
        g = g @ W
    return grads
