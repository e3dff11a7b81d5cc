# Alternative style: clone x first, then the original in-place lines on the clone (safe: nobody saved the clone's old
# value); only the gate is made out of place.
def gated_unit(x, w):
    x = x.clone()
    x.sub_(x.mean(dim=-1, keepdim=True))
    h = x @ w
    h.relu_()
    gate = torch.sigmoid(h)
    return gate * h
