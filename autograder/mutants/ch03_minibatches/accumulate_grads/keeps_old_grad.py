# Canonical mistake: never clears .grad first, so a stale gradient from an earlier step is added in.
# Hint: Reread what the statement says happens to whatever `.grad` held before the call.
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    counted = (y != -100).sum().item()
    total = 0.0
    for i in range(0, len(x), micro_batch_size):
        xb, yb = x[i:i + micro_batch_size], y[i:i + micro_batch_size]
        loss = loss_fn(model(xb), yb) * ((yb != -100).sum().item() / counted)
        loss.backward()
        total += loss.item()
    return total
