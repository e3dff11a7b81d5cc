# Canonical mistake: keeps gate.mul_(h), overwriting the sigmoid output that backward needs.
# Hint: Reread the explanation of error 3 above the exercise: what the sigmoid's backward needs.
def gated_unit(x, w):
    h = torch.relu((x - x.mean(dim=-1, keepdim=True)) @ w)
    gate = torch.sigmoid(h)
    gate.mul_(h)
    return gate
