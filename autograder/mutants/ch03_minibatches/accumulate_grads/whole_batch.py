# fails: test_accumulate_grads_hidden
# Canonical mistake: ignores micro_batch_size and runs the whole batch at once (right gradients, but the memory
# it was meant to save is spent).
# Hint: Reread how many rows the model may see at once.
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    loss = loss_fn(model(x), y)
    loss.backward()
    return loss.item()
