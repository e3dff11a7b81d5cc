# fails: test_Value_hidden
# Canonical mistake: relu's local derivative is 1 at 0 (>= instead of >), unlike PyTorch.
# Hint: Reread the second bullet of the statement: the condition for `(1,)`, and what happens at 0.

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
        t = math.tanh(self.data)
        return Value(t, (self,), (1.0 - t * t,), "tanh")

    def relu(self):
        return Value(max(self.data, 0.0), (self,), (1.0 if self.data >= 0 else 0.0,), "relu")

    __radd__ = __add__
    __rmul__ = __mul__
