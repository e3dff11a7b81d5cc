# A table of (how many, elements, bytes per element) per saved tensor, summed at the end.
def predict_training_bytes(config, batch, seq, optimizer_states=2):
    V, d, L = config["vocab_size"], config["dim"], config["n_layers"]
    h, f = config["n_heads"], config["hidden"]
    b, s = batch, seq
    block = [
        (2, b * s, 4), (2, b * s * d, 4), (2, b * s * d, 4),      # two RMSNorms: rsqrt, x*rsqrt, output
        (2, b * s * d, 4),                                          # q, k after RoPE
        (1, b * s * d, 4),                                          # v made contiguous
        (4, s * (d // h) // 2, 4),                                  # cos/sin tables for q and k
        (1, b * h * s * s, 4),                                      # attention probabilities
        (1, s * s, 1),                                              # causal mask (bool)
        (1, b * s * d, 4),                                          # merged heads
        (4, b * s * f, 4),                                          # SwiGLU
        (2, b * s * d, 4),                                          # residual sums
    ]
    head = [(1, b * s, 8), (1, b * s * d, 4), (1, b * s, 4), (2, b * s * d, 4), (1, b * (s - 1) * V, 4),
            (1, b * (s - 1), 8), (1, 1, 4)]
    activations = L * sum(k * n * e for k, n, e in block) + sum(k * n * e for k, n, e in head)
    n_params = 2 * V * d + d + L * (2 * d + 4 * d * d + 3 * d * f)
    out = dict(parameters=4 * n_params, gradients=4 * n_params, optimizer=4 * n_params * optimizer_states,
               activations=activations)
    out["total"] = out["parameters"] + out["gradients"] + out["optimizer"] + out["activations"]
    return out
