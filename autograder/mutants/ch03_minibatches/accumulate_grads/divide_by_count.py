# Canonical mistake: divides every micro-batch by the number of micro-batches, wrong when the last is smaller.
# Hint: Reread how the statement says to weight each micro-batch, the last one included.
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    k = math.ceil(len(x) / micro_batch_size)
    total = 0.0
    for i in range(0, len(x), micro_batch_size):
        loss = loss_fn(model(x[i:i + micro_batch_size]), y[i:i + micro_batch_size]) / k
        loss.backward()
        total += loss.item()
    return total
