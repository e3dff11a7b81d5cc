# fails: test_softmax_cross_entropy_backward_hidden
# Canonical mistake: softmax written as exp / sum(exp) without subtracting the row maximum: inf/inf = nan for big
# logits.
# Hint: Reread the statement's last sentence: what to subtract first if you write the softmax yourself.
def softmax_cross_entropy_backward(logits, y):
    e = logits.exp()
    probs = e / e.sum(dim=1, keepdim=True)
    return (probs - F.one_hot(y, logits.shape[1]).to(logits.dtype)) / logits.shape[0]
