# torch.autograd.grad per micro-batch, summed by hand into new .grad tensors (torch.split for the chunks).
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    params = list(model.parameters())
    total_count = int((y != -100).sum())
    acc = [torch.zeros_like(p) for p in params]
    loss_value = 0.0
    for xb, yb in zip(torch.split(x, micro_batch_size), torch.split(y, micro_batch_size)):
        weight = int((yb != -100).sum()) / total_count
        loss = loss_fn(model(xb), yb) * weight
        for a, g in zip(acc, torch.autograd.grad(loss, params, allow_unused=True)):
            if g is not None:
                a += g
        loss_value += loss.detach().item()
    for p, a in zip(params, acc):
        p.grad = a
    return loss_value
