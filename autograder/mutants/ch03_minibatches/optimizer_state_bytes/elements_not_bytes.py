# Canonical mistake: counts elements, not bytes.
# Hint: Reread the unit of the answer: bytes, elements times element size.
def optimizer_state_bytes(optimizer):
    return sum(v.numel() for s in optimizer.state.values() for v in s.values() if isinstance(v, torch.Tensor))
