# Canonical mistake: the first learning rate trains the initial model itself, so the copies made for the later ones
# start from its trained weights.
# Hint: Reread the statement: every learning rate, the first included, starts from a copy of the same initial weights.
def lr_sweep(make_model, batch, lrs, steps):
    x, y = batch
    initial = make_model()
    curves = {}
    for i, lr in enumerate(lrs):
        model = initial if i == 0 else copy.deepcopy(initial)
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        curves[lr] = []
        for _ in range(steps):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            curves[lr].append(loss.item())
            loss.backward()
            opt.step()
    return curves
