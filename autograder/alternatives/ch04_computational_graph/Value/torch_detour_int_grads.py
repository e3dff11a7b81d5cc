# Alternative style: a float64 torch detour for tanh (.item()), int local derivatives, relu written as x * (x > 0).

class Value:
    def __init__(self, data, _prev=(), _local_grads=(), op=""):
        self.data = float(data)
        self.grad = 0.0
        self._prev = tuple(_prev)
        self._local_grads = tuple(_local_grads)
        self.op = op

    def __repr__(self):
        return f"Value(data={self.data:.4g}, grad={self.grad:.4g}, op={self.op!r})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), (1, 1), "+")
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data), "*")

    def tanh(self):
        t = torch.tanh(torch.tensor(self.data, dtype=torch.float64)).item()
        return Value(t, (self,), ((1 - t) * (1 + t),), "tanh")

    def relu(self):
        positive = int(self.data > 0)
        return Value(self.data * positive, (self,), (positive,), "relu")

    __radd__ = __add__   # 2 + a
    __rmul__ = __mul__   # 3 * a
