# fails: test_noise_scale_hidden
# Canonical mistake: converts the rows to float32 first: float64 gradients that agree to their fourth digit lose
# their variance.
# Hint: Reread the precision the statement asks for: float64 rows stay in float64.
import torch


def noise_scale(per_sample):
    rows = per_sample.float()
    if rows.shape[0] < 2:
        raise ValueError("need two rows")
    g = rows.mean(0)
    return float(rows.var(0, correction=1).sum() / (g ** 2).sum())
