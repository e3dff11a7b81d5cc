# Alternative style: the whole forward and backward pass in NumPy (float64), tensors only at the end.
import numpy as np

def mlp_backward(params, x, y):
    Ws = [W.numpy() for W, _ in params]
    bs = [b.numpy() for _, b in params]
    acts, pres = [x.numpy()], []
    for i in range(len(Ws)):
        z = acts[-1] @ Ws[i].T + bs[i]
        pres.append(z)
        acts.append(np.maximum(z, 0) if i < len(Ws) - 1 else z)
    z = acts[-1]
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(p)), y.numpy()] -= 1
    g = p / len(p)
    out = []
    for i in reversed(range(len(Ws))):
        if i < len(Ws) - 1:
            g = g * (pres[i] > 0)
        out.insert(0, (torch.from_numpy(g.T @ acts[i]), torch.from_numpy(g.sum(axis=0))))
        g = g @ Ws[i]
    return out
