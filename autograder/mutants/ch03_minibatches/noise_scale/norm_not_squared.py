# Canonical mistake: divides by |G| instead of |G|².
# Hint: Reread the formula for B_simple above the exercise: its denominator.
def noise_scale(per_sample):
    if per_sample.shape[0] < 2:
        raise ValueError("need at least two rows")
    return (per_sample.var(0).sum() / per_sample.mean(0).norm()).item()
