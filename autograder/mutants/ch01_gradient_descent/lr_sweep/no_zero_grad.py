# fails: test_lr_sweep_hidden
# Canonical mistake: no zero_grad, so gradients add up across steps.
# Hint: Reread the statement: each of the `steps` steps is one step of full-batch gradient descent on that step's
# loss.
def lr_sweep(make_model, batch, lrs, steps):
    x, y = batch
    initial = make_model()
    curves = {}
    for lr in lrs:
        model = copy.deepcopy(initial)
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        curves[lr] = []
        for _ in range(steps):
            loss = F.cross_entropy(model(x), y)
            curves[lr].append(loss.item())
            loss.backward()
            opt.step()
    return curves
