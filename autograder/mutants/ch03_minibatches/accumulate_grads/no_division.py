# Canonical mistake: adds up the micro-batch mean losses without weighting them.
# Hint: Reread which loss the accumulated `.grad` must be the gradient of: a mean over the whole batch.
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    total = 0.0
    for i in range(0, len(x), micro_batch_size):
        loss = loss_fn(model(x[i:i + micro_batch_size]), y[i:i + micro_batch_size])
        loss.backward()
        total += loss.item()
    return total
