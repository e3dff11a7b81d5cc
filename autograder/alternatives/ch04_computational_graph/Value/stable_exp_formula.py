# Alternative style: tanh from exp(-2|x|), which never overflows, and the sign put back by hand.

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
        return Value(self.data + other.data, (self, other), (1.0, 1.0), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data), "*")

    def tanh(self):
        e = math.exp(-2.0 * abs(self.data))
        t = math.copysign(-math.expm1(-2.0 * abs(self.data)) / (1.0 + e), self.data)
        return Value(t, (self,), (1.0 - t * t,), "tanh")

    def relu(self):
        if self.data > 0:
            return Value(self.data, (self,), (1.0,), "relu")
        return Value(0.0, (self,), (0.0,), "relu")

    __radd__ = __add__   # 2 + a
    __rmul__ = __mul__   # 3 * a
