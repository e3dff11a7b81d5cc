import numpy as np

def check_gradients(flight):
    model = copy.deepcopy(flight.model)
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    loss = flight.loss_fn(model, flight.make_batch(flight.batch_size))
    grads = torch.autograd.grad(loss, [p for _, p in named], allow_unused=True)
    bad, ratio = None, {}
    for (name, p), g in zip(named, grads):
        if g is None:
            continue
        if torch.isnan(g).any() or torch.isinf(g).any():
            bad = bad or f"non-finite gradient in {name}"
        elif torch.count_nonzero(g) == 0:
            bad = bad or f"all-zero gradient in {name}"
        elif torch.count_nonzero(p) > 0:
            ratio[name] = float(torch.linalg.vector_norm(g) / torch.linalg.vector_norm(p.detach()))
    mid = float(np.median(list(ratio.values()))) if ratio else 0.0
    for name, r in ratio.items():
        if bad is None and r > flight.max_ratio * mid:
            bad = f"exploding gradient in {name}: ratio {r:.3g} vs median {mid:.3g}"
    return CheckResult("gradients", bad is None, bad or f"ratios fine, median {mid:.3g}")
