# Reads the optimizer's state_dict (the same tensors, keyed by parameter index).
def optimizer_state_bytes(optimizer):
    total = 0
    for per_param in optimizer.state_dict()["state"].values():
        for value in per_param.values():
            if torch.is_tensor(value):
                total += value.nbytes
    return int(total)
