# Canonical mistake: a ReLU after the last layer too, in the forward and the backward pass.
# Hint: Reread the network's forward pass in the statement: which layers are followed by a ReLU?
def mlp_backward(params, x, y):
    inputs, pre, h = [], [], x
    for W, b in params:
        inputs.append(h)
        z = h @ W.T + b
        pre.append(z)
        h = torch.relu(z)
    g = (torch.softmax(h, dim=1) - F.one_hot(y, h.shape[1]).to(h.dtype)) / x.shape[0]
    grads = [None] * len(params)
    for i in reversed(range(len(params))):
        g = g * (pre[i] > 0).to(g.dtype)
        W, _ = params[i]
        grads[i] = (g.T @ inputs[i], g.sum(dim=0))
        g = g @ W
    return grads
