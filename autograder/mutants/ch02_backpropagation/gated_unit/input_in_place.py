# Canonical mistake: keeps the in-place centring of the caller's x (a leaf that requires grad refuses it).
# Hint: Reread the second bullet of the statement: the inputs are left untouched.
def gated_unit(x, w):
    x.sub_(x.mean(dim=-1, keepdim=True))
    h = torch.relu(x @ w)
    return h * torch.sigmoid(h)
