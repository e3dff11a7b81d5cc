# fails: test_accumulate_grads_hidden
# Canonical mistake: weights each micro-batch by its share of the rows, not of the counted targets (wrong when
# some targets are ignored, e.g. padding in a per-token mean).
# Hint: Reread what a micro-batch's weight is a share of.
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    total = 0.0
    for i in range(0, len(x), micro_batch_size):
        xb, yb = x[i:i + micro_batch_size], y[i:i + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (len(xb) / len(x))
        loss.backward()
        total += loss.item()
    return total
