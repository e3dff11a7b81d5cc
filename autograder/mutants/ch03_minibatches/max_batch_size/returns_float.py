# Canonical mistake: floor division of floats returns a float (8.0), not an int.
# Hint: Reread the type the statement asks you to return.
def max_batch_size(budget_bytes, fixed_bytes, bytes_per_sample):
    if bytes_per_sample <= 0:
        raise ValueError("bytes_per_sample must be positive")
    return max(0.0, (budget_bytes - fixed_bytes) // float(bytes_per_sample))
