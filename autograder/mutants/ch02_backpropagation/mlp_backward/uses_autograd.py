# fails: test_mlp_backward_hidden
# Canonical mistake: rebuilds the loss with autograd switched back on and calls torch.autograd.grad.
# Hint: Reread the statement's last sentence and the paragraph before the exercises: the same rule applies.
def mlp_backward(params, x, y):
    with torch.enable_grad():
        leaves = [(W.detach().requires_grad_(), b.detach().requires_grad_()) for W, b in params]
        h = x
        for i, (W, b) in enumerate(leaves):
            h = F.linear(h, W, b)
            if i < len(leaves) - 1:
                h = torch.relu(h)
        flat = torch.autograd.grad(F.cross_entropy(h, y), [t for pair in leaves for t in pair])
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(len(params))]
