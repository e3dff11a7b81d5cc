# fails: test_noise_scale_hidden
# Canonical mistake: tr Σ as (Σ‖g_i‖² − N‖G‖²)/(N−1): equal on paper, but it cancels to noise when the rows
# agree to many digits.
# Hint: Reread how rows that agree to many digits must keep their spread.
def noise_scale(per_sample):
    n = per_sample.shape[0]
    if n < 2:
        raise ValueError("need at least two per-example gradients")
    mean = per_sample.mean(0)
    g2 = (mean * mean).sum()
    trace = ((per_sample * per_sample).sum() - n * g2) / (n - 1)
    return (trace / g2).item()
