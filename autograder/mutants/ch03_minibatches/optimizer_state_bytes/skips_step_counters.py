# Canonical mistake: leaves out the 0-dimensional step counters.
# Hint: Reread which of the state's tensors count.
def optimizer_state_bytes(optimizer):
    return sum(v.numel() * v.element_size() for s in optimizer.state.values() for v in s.values()
               if isinstance(v, torch.Tensor) and v.dim() > 0)
