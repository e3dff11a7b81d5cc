# Canonical mistake: keeps model.state_dict() without copying it; its tensors are the live parameters, so "restoring"
# it later restores nothing and every lr after the first continues from trained weights.
# Hint: Reread the statement: it names the function that makes a copy of the initial weights.
def lr_sweep(make_model, batch, lrs, steps):
    x, y = batch
    model = make_model()
    initial = model.state_dict()
    curves = {}
    for lr in lrs:
        model.load_state_dict(initial)
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        curves[lr] = []
        for _ in range(steps):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            curves[lr].append(loss.item())
            loss.backward()
            opt.step()
    return curves
