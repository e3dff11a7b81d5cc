# fails: test_accumulate_grads_hidden
# Canonical mistake: discards the old gradient with p.grad.zero_(), which fails when .grad is still None (no
# step yet).
# Hint: Reread what .grad may hold before the call: an old gradient, or nothing yet.
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    for p in model.parameters():
        p.grad.zero_()                                  # discard the old gradient
    total = (y != -100).sum().item()
    loss_sum = 0.0
    for i in range(0, len(x), micro_batch_size):
        xb, yb = x[i:i + micro_batch_size], y[i:i + micro_batch_size]
        share = (yb != -100).sum().item() / total
        loss = loss_fn(model(xb), yb)
        (loss * share).backward()
        loss_sum += loss.item() * share
    return loss_sum
