# Canonical mistake: moves the in-place write to h.mul_(gate): h is the ReLU's output, which ReluBackward0 saved.
# Hint: Reread the explanation of error 3 above the exercise: a node may have saved its output, and which node saved
# `h`.
def gated_unit(x, w):
    x = x - x.mean(dim=-1, keepdim=True)
    h = torch.relu(x @ w)
    gate = torch.sigmoid(h)
    return h.mul_(gate)
