# Canonical mistake: "fixes" the error with detach(): no error any more, but the gate's gradient is lost.
# Hint: Reread the first bullet of the statement: the correct gradients for `x` and `w`.
def gated_unit(x, w):
    h = torch.relu((x - x.mean(dim=-1, keepdim=True)) @ w)
    gate = torch.sigmoid(h).detach()
    gate.mul_(h)
    return gate
