# fails: test_optimizer_state_bytes_hidden
# Canonical mistake: counts the state of the first parameter group's parameters only.
# Hint: Reread which tensors count: all that optimizer.state keeps, whatever group their parameter is in.
def optimizer_state_bytes(optimizer):
    total = 0
    for p in optimizer.param_groups[0]["params"]:
        for value in optimizer.state.get(p, {}).values():
            if isinstance(value, torch.Tensor):
                total += value.numel() * value.element_size()
    return total
