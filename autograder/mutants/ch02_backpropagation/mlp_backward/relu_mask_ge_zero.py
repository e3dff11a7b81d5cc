# fails: test_mlp_backward_hidden
# Canonical mistake: the ReLU mask z >= 0 passes the gradient where the pre-activation is exactly 0 (PyTorch: 0).
# Hint: Reread the statement's sentence on the ReLU's derivative at exactly 0.
def mlp_backward(params, x, y):
    inputs, pre, h = [], [], x
    for i, (W, b) in enumerate(params):
        inputs.append(h)
        z = h @ W.T + b
        pre.append(z)
        h = torch.relu(z) if i < len(params) - 1 else z
    g = (torch.softmax(h, dim=1) - F.one_hot(y, h.shape[1]).to(h.dtype)) / x.shape[0]
    grads = [None] * len(params)
    for i in reversed(range(len(params))):
        if i < len(params) - 1:
            g = g * (pre[i] >= 0).to(g.dtype)
        W, _ = params[i]
        grads[i] = (g.T @ inputs[i], g.sum(dim=0))
        g = g @ W
    return grads
