# fails: test_lr_sweep
# Canonical mistake: float(loss) instead of loss.item(); on a tensor that requires grad it warns on stderr. torch
# warns once per process, so only the first call (the visible test) shows it.
# Hint: Reread the statement's paragraph on copying each loss out, and what a test cell that writes to stderr scores.
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
            loss = F.cross_entropy(model(x), y)
            curves[lr].append(float(loss))
            loss.backward()
            opt.step()
    return curves
