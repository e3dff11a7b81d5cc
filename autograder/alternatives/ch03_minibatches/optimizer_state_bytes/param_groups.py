# Walks the parameter groups and looks each parameter up in optimizer.state.
def optimizer_state_bytes(optimizer):
    total = 0
    for group in optimizer.param_groups:
        for p in group["params"]:
            for value in optimizer.state.get(p, {}).values():
                if isinstance(value, torch.Tensor):
                    total += value.numel() * value.dtype.itemsize
    return total
