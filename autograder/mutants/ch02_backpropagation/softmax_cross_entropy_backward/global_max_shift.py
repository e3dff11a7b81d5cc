# fails: test_softmax_cross_entropy_backward_hidden
# Canonical mistake: subtracts one maximum for the whole batch: a row far below it underflows to 0/0 = nan.
# Hint: Reread the statement's last sentence: whose maximum is subtracted, when rows lie far apart.
def softmax_cross_entropy_backward(logits, y):
    e = (logits - logits.max()).exp()
    probs = e / e.sum(dim=1, keepdim=True)
    return (probs - F.one_hot(y, logits.shape[1]).to(logits.dtype)) / logits.shape[0]
