"""Float32 matmul precision, decided explicitly wherever float32 speed or compilation is shown.

On a CUDA GPU from Ampere on, "high" lets float32 matmuls and convolutions run on TF32 tensor cores: inputs rounded
to a 10-bit mantissa (about 3 decimal digits, like float16's), products summed in float32, several times the
throughput. "highest" keeps true float32. PyTorch's default is "highest", and `torch.compile` warns on stderr when
a CUDA GPU could use TF32 and it is not enabled: a chapter that compiles or times float32 work on a GPU says which
it chose. On the CPU the setting changes nothing.
"""
from contextlib import contextmanager

import torch

PRECISIONS = ("highest", "high", "medium")


@contextmanager
def float32_matmul(precision):
    """Runs the block with `torch.set_float32_matmul_precision(precision)` and restores the previous setting."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision={precision!r}: expected one of {', '.join(PRECISIONS)}")
    before = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision(precision)
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(before)
