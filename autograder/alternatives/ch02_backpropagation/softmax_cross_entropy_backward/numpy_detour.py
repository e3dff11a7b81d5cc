# Alternative style: NumPy with a row-max shift and np.put_along_axis, back to a tensor of the logits' dtype.
import numpy as np

def softmax_cross_entropy_backward(logits, y):
    z = logits.numpy()
    e = np.exp(z - z.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    onehot = np.zeros_like(p)
    np.put_along_axis(onehot, y.numpy()[:, None], 1.0, axis=1)
    return torch.from_numpy((p - onehot) / z.shape[0])
