# Canonical mistake: moves the in-place write to h.mul_(gate): h is the ReLU's output, which ReluBackward0 saved.
def gated_unit(x, w):
    x = x - x.mean(dim=-1, keepdim=True)
    h = torch.relu(x @ w)
    gate = torch.sigmoid(h)
    return h.mul_(gate)
