# Canonical mistake: records the loss after the step, so the curve never shows the starting point.
# Hint: Reread the statement: when in each step is the loss recorded?
def lr_sweep(make_model, batch, lrs, steps):
    x, y = batch
    initial = make_model()
    curves = {}
    for lr in lrs:
        model = copy.deepcopy(initial)
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        curves[lr] = []
        for _ in range(steps):
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
            curves[lr].append(F.cross_entropy(model(x), y).item())
    return curves
