# Counts float32 elements per token and per sequence first, then multiplies out; the model is built on the
# meta device to count its parameters.
def predict_training_bytes(config, batch, seq, optimizer_states=2):
    with torch.device("meta"):
        n_params = sum(p.numel() for p in TinyDecoder(**config).parameters())
    d, f, h, vocab = config["dim"], config["hidden"], config["n_heads"], config["vocab_size"]
    per_token_block = 2 * (1 + 2 * d) + 2 * d + d + d + 4 * f + 2 * d      # floats per token in one block
    per_sequence_block = h * seq * seq                                       # attention probabilities
    shared_block = 2 * seq * (d // h)                                        # RoPE tables
    floats = config["n_layers"] * (batch * seq * per_token_block + batch * per_sequence_block + shared_block)
    floats += batch * seq * (d + 1 + 2 * d) + batch * (seq - 1) * vocab + 1
    int64s = batch * seq + batch * (seq - 1)
    bools = config["n_layers"] * seq * seq
    parts = {"parameters": 4 * n_params}
    parts["gradients"] = parts["parameters"]
    parts["optimizer"] = optimizer_states * parts["parameters"]
    parts["activations"] = 4 * floats + 8 * int64s + bools
    parts["total"] = sum(parts.values())
    return parts
