# Canonical mistake: a freshly initialised model per learning rate, so every run starts from other weights.
# Hint: Reread the statement: how many times is `make_model()` called, and what does every learning rate start from?
def lr_sweep(make_model, batch, lrs, steps):
    x, y = batch
    curves = {}
    for lr in lrs:
        model = make_model()
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        curves[lr] = []
        for _ in range(steps):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            curves[lr].append(loss.item())
            loss.backward()
            opt.step()
    return curves
