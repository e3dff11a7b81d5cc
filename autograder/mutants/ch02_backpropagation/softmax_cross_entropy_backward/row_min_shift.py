# fails: test_softmax_cross_entropy_backward_hidden
# Canonical mistake: subtracts each row's minimum ("make everything positive"): exp overflows once a row spans > 709.
# Hint: Reread the statement's last sentence: which value of each row is subtracted, and why.
def softmax_cross_entropy_backward(logits, y):
    e = (logits - logits.min(dim=1, keepdim=True).values).exp()
    probs = e / e.sum(dim=1, keepdim=True)
    return (probs - F.one_hot(y, logits.shape[1]).to(logits.dtype)) / logits.shape[0]
