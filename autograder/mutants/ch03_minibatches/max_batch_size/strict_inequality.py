# Canonical mistake: demands memory strictly below the budget, so an exact fit loses one.
# Hint: Reread the inequality a batch size must satisfy.
def max_batch_size(budget_bytes, fixed_bytes, bytes_per_sample):
    if bytes_per_sample <= 0:
        raise ValueError("bytes_per_sample must be positive")
    return max(0, math.ceil((budget_bytes - fixed_bytes) / bytes_per_sample) - 1)
