# Canonical mistake: divides by |G| instead of |G|².
# Hint: Reread the denominator of B_simple.
def noise_scale(per_sample):
    if per_sample.shape[0] < 2:
        raise ValueError("need at least two rows")
    return (per_sample.var(0).sum() / per_sample.mean(0).norm()).item()
