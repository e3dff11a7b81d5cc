# Correct in another style: one model, a deep copy of its initial state_dict reloaded before every lr.
def lr_sweep(make_model, batch, lrs, steps):
    x, y = batch
    model = make_model()
    initial_state = copy.deepcopy(model.state_dict())
    curves = {}
    for lr in lrs:
        model.load_state_dict(initial_state)
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        curves[lr] = []
        for _ in range(steps):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            curves[lr].append(loss.item())
            loss.backward()
            opt.step()
    return curves
