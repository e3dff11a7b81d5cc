# Canonical mistake: returns a generator of pairs (zip) instead of a list or tuple: no len(), one pass only.
# Hint: Reread the statement: the containers the pairs may come in.
def mlp_backward(params, x, y):
    inputs, pre, h = [], [], x
    for i, (W, b) in enumerate(params):
        inputs.append(h)
        z = h @ W.T + b
        pre.append(z)
        h = torch.relu(z) if i < len(params) - 1 else z
    g = (torch.softmax(h, dim=1) - F.one_hot(y, h.shape[1]).to(h.dtype)) / x.shape[0]
    gWs, gbs = [None] * len(params), [None] * len(params)
    for i in reversed(range(len(params))):
        if i < len(params) - 1:
            g = g * (pre[i] > 0).to(g.dtype)
        W, _ = params[i]
        gWs[i], gbs[i] = g.T @ inputs[i], g.sum(dim=0)
        g = g @ W
    return zip(gWs, gbs)
