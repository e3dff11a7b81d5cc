# fails: test_rel_error_hidden
# Canonical mistake: never converts the inputs, so float32 inputs are compared in float32 arithmetic.
# Hint: Reread the statement: convert the inputs first, they may be float32.
def rel_error(a, b):
    return ((a - b).abs() / (a.abs() + b.abs()).clamp_min(1e-8)).max().item()
