# Alternative style: exp of log_softmax, and the one-hot rows taken from an identity matrix.
def softmax_cross_entropy_backward(logits, y):
    probs = F.log_softmax(logits, dim=-1).exp()
    onehot = torch.eye(logits.shape[1], dtype=logits.dtype)[y]
    return (probs - onehot) / len(logits)
