# Canonical mistake: uses the previous layer's pre-activation z (before ReLU) as this layer's input in grad_W.
# Hint: Reread the Linear rule ∂W = Gᵀx: x is the input the layer saw in the forward pass.
def mlp_backward(params, x, y):
    inputs, pre, h = [], [], x
    for i, (W, b) in enumerate(params):
        inputs.append(pre[-1] if pre else h)
        z = h @ W.T + b
        pre.append(z)
        h = torch.relu(z) if i < len(params) - 1 else z
    g = (torch.softmax(h, dim=1) - F.one_hot(y, h.shape[1]).to(h.dtype)) / x.shape[0]
    grads = [None] * len(params)
    for i in reversed(range(len(params))):
        if i < len(params) - 1:
            g = g * (pre[i] > 0).to(g.dtype)
        W, _ = params[i]
        grads[i] = (g.T @ inputs[i], g.sum(dim=0))
        g = g @ W
    return grads
