# Canonical mistake: 1/λmax (the best step for the stiffest direction) instead of the stability limit 2/λmax.
# Hint: Reread the section's stability condition: the learning rate must stay below what?
def max_stable_lr(H):
    if not torch.allclose(H, H.T):
        raise ValueError("H must be symmetric")
    lam_max = torch.linalg.eigvalsh(H)[-1].item()
    if lam_max <= 0:
        raise ValueError("no stable learning rate")
    return 1.0 / lam_max
