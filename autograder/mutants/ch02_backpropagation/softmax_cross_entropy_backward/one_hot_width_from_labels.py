# fails: test_softmax_cross_entropy_backward_hidden
# Canonical mistake: F.one_hot(y) without num_classes: as wide as the largest label present, not C.
# Hint: Reread the statement: not every class need occur in `y`, and the result is shaped like `logits`.
def softmax_cross_entropy_backward(logits, y):
    probs = torch.softmax(logits, dim=1)
    return (probs - F.one_hot(y).to(logits.dtype)) / logits.shape[0]
