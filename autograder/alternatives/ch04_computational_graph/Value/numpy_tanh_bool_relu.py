# Alternative style: NumPy for tanh (NumPy float64 results) and a bool as relu's local derivative, like micrograd.
import numpy as np


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
        return Value(self.data + other.data, (self, other), (1, 1), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, [self, other], [other.data, self.data], "*")

    def tanh(self):
        t = np.tanh(self.data)
        return Value(t, (self,), (1 - t ** 2,), "tanh")

    def relu(self):
        return Value(self.data if self.data > 0 else 0.0, (self,), (self.data > 0,), "relu")

    __radd__ = __add__   # 2 + a
    __rmul__ = __mul__   # 3 * a
