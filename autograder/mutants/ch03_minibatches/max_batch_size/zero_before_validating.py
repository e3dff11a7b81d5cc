# fails: test_max_batch_size_hidden
# Canonical mistake: returns 0 when the fixed part fills the budget before checking bytes_per_sample, so a
# non-positive bytes_per_sample raises no ValueError there.
# Hint: Reread when ValueError is raised: whenever bytes_per_sample is not positive.
def max_batch_size(budget_bytes, fixed_bytes, bytes_per_sample):
    if fixed_bytes >= budget_bytes:
        return 0
    if bytes_per_sample <= 0:
        raise ValueError("bytes_per_sample must be positive")
    return int(math.floor((budget_bytes - fixed_bytes) / bytes_per_sample))
