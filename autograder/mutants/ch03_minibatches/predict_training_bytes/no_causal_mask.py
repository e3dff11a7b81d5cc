# fails: test_predict_training_bytes_hidden
# Canonical mistake: leaves out the seq × seq bool causal mask each block saves.
# Hint: Reread the listing of what each block saves, and the dtype of the attention mask.
def predict_training_bytes(config, batch, seq, optimizer_states=2):
    vocab, dim, layers = config["vocab_size"], config["dim"], config["n_layers"]
    heads, hidden = config["n_heads"], config["hidden"]
    n = batch * seq                                   # token positions
    params = vocab * dim + layers * (4 * dim * dim + 3 * dim * hidden + 2 * dim) + dim + dim * vocab
    norm = n + 2 * n * dim                            # rsqrt [n, 1], x * rsqrt [n, d], the norm's output [n, d]
    attention = (2 * n * dim                          # q and k after RoPE, saved by q @ kᵀ
                 + n * dim                            # v copied into a contiguous layout for weights @ v
                 + 2 * seq * (dim // heads)           # RoPE cos and sin tables, for q and for k
                 + batch * heads * seq * seq          # softmax output: the attention probabilities
                 + n * dim)                           # heads merged back (a copy): o_proj's input
    mlp = 4 * n * hidden                              # gate, up, silu(gate), silu(gate) * up
    residuals = 2 * n * dim                           # x + attention, h + mlp
    per_block = 4 * (2 * norm + attention + mlp + residuals)    # (mask forgotten)
    outside = (8 * n                                  # the tokens (int64), saved by the embedding
               + 4 * n * dim                          # the embedding's output
               + 4 * norm                             # the final norm
               + 4 * batch * (seq - 1) * vocab        # log-softmax output
               + 8 * batch * (seq - 1)                # the shifted targets (int64)
               + 4)                                   # the loss's total weight
    parts = {"parameters": 4 * params, "gradients": 4 * params, "optimizer": 4 * optimizer_states * params,
             "activations": layers * per_block + outside}
    parts["total"] = sum(parts.values())
    return parts
