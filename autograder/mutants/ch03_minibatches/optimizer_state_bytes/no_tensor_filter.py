# fails: test_optimizer_state_bytes_hidden
# Canonical mistake: counts every state entry as a tensor: an entry that is an int or a float crashes it.
# Hint: Reread which entries count: tensors only.
def optimizer_state_bytes(optimizer):
    total = 0
    for state in optimizer.state.values():
        for v in state.values():
            total += v.numel() * v.element_size()
    return total
