# Alternative style: einsum over the last axis, clamp(min=0) for the ReLU, sigmoid via 1 / (1 + exp(-h)).
def gated_unit(x, w):
    centred = x - x.mean(dim=-1, keepdim=True)
    h = torch.einsum("...i,io->...o", centred, w).clamp(min=0)
    return h / (1 + torch.exp(-h))
