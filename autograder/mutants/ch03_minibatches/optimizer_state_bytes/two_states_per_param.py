# Canonical mistake: assumes every optimizer keeps two states of the parameter's size (AdamW), and no step counters.
# Hint: Reread the statement: every tensor in `optimizer.state` counts, whatever the optimizer.
def optimizer_state_bytes(optimizer):
    if not optimizer.state:
        return 0
    return sum(2 * p.numel() * p.element_size() for group in optimizer.param_groups for p in group["params"])
