# Backward on each micro-batch's *summed* loss (mean × count), then one division of every .grad at the end.
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    for p in model.parameters():
        p.grad = None
    counted_total = 0
    loss_total = 0.0
    starts = list(range(0, x.shape[0], micro_batch_size))
    for start in starts:
        xb, yb = x[start:start + micro_batch_size], y[start:start + micro_batch_size]
        count = int((yb != -100).sum())
        summed = loss_fn(model(xb), yb) * count
        summed.backward()
        counted_total += count
        loss_total += summed.item()
    with torch.no_grad():
        for p in model.parameters():
            if p.grad is not None:
                p.grad /= counted_total
    return loss_total / counted_total
