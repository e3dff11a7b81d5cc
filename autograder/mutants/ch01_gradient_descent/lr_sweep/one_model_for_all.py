# Canonical mistake: the article's loop: one model carried from learning rate to learning rate.
# Hint: Reread the statement: what every learning rate starts from, and the Predict question about the article's loop.
# Equivalent: first_lr_trains_the_original, shallow_state_dict
def lr_sweep(make_model, batch, lrs, steps):
    x, y = batch
    model = make_model()
    curves = {}
    for lr in lrs:
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        curves[lr] = []
        for _ in range(steps):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            curves[lr].append(loss.item())
            loss.backward()
            opt.step()
    return curves
