# Canonical mistake: rounds to the nearest batch size, which can exceed the budget.
# Hint: Reread the condition every batch size you return must meet: within the budget.
def max_batch_size(budget_bytes, fixed_bytes, bytes_per_sample):
    if bytes_per_sample <= 0:
        raise ValueError("bytes_per_sample must be positive")
    return max(0, round((budget_bytes - fixed_bytes) / bytes_per_sample))
