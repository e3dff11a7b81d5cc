# fails: test_optimizer_state_bytes_hidden
# Canonical mistake: counts only the state keys the statement names (exp_avg, exp_avg_sq, max_exp_avg_sq, step,
# momentum_buffer): RMSprop's square_avg and Adagrad's sum are left out.
# Hint: Reread which tensors count: every tensor in the state, whatever its key.
_KEYS = ("exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step", "momentum_buffer")


def optimizer_state_bytes(optimizer):
    total = 0
    for state in optimizer.state.values():
        for key in _KEYS:
            value = state.get(key)
            if isinstance(value, torch.Tensor):
                total += value.numel() * value.element_size()
    return total
