# Correct in another style: records the loss in a separate forward under no_grad (tolist of a 0-d tensor is a
# float), a helper per run, the dict built by a comprehension, model.zero_grad(set_to_none=False).
def lr_sweep(make_model, batch, lrs, steps):
    x, y = batch[0], batch[1]
    start = make_model()

    def run(lr):
        model = copy.deepcopy(start)
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        losses = []
        for _ in range(steps):
            with torch.no_grad():
                losses.append(F.cross_entropy(model(x), y).tolist())
            model.zero_grad(set_to_none=False)
            F.cross_entropy(model(x), y).backward()
            opt.step()
        return losses

    return {lr: run(lr) for lr in lrs}
