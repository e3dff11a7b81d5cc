# Binary search on the condition itself: no division at all.
def max_batch_size(budget_bytes, fixed_bytes, bytes_per_sample):
    if bytes_per_sample <= 0:
        raise ValueError("bytes_per_sample must be positive")
    fits = lambda b: fixed_bytes + b * bytes_per_sample <= budget_bytes
    if not fits(0):
        return 0
    high = 1
    while fits(high):
        high *= 2
    low = high // 2 if high > 1 else 0          # fits(low), not fits(high)
    while high - low > 1:
        mid = (low + high) // 2
        if fits(mid):
            low = mid
        else:
            high = mid
    return low
