# fails: test_max_batch_size_hidden
# Canonical mistake: no floor at 0: a fixed part over the budget gives a negative batch size.
# Hint: Reread what to return when not even one example fits.
def max_batch_size(budget_bytes, fixed_bytes, bytes_per_sample):
    if bytes_per_sample <= 0:
        raise ValueError("bytes_per_sample must be positive")
    return math.floor((budget_bytes - fixed_bytes) / bytes_per_sample)
