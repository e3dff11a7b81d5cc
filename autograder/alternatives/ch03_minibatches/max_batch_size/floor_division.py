def max_batch_size(budget_bytes, fixed_bytes, bytes_per_sample):
    if not bytes_per_sample > 0:
        raise ValueError("bytes_per_sample must be > 0")
    room = budget_bytes - fixed_bytes
    return int(room // bytes_per_sample) if room >= 0 else 0
