# Correct in another style: float() of the detached loss (no warning: it does not require grad), models copied
# up front.
def lr_sweep(make_model, batch, lrs, steps):
    x, y = batch
    initial = make_model()
    models = [copy.deepcopy(initial) for _ in lrs]
    curves = {}
    for lr, model in zip(lrs, models):
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        losses = []
        step = 0
        while step < steps:
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(x), y)
            losses.append(float(loss.detach()))
            loss.backward()
            opt.step()
            step += 1
        curves[lr] = losses
    return curves
