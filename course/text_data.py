"""Real text that exists offline everywhere: the Python standard library's own source files, read at run time.

Nothing is copied into the course: `stdlib_files()` finds the standard library of the running interpreter through
`sysconfig`, so every student trains on the same kind of text, without a download. Tokens are bytes (vocabulary
256): no tokenizer to train, and every file round-trips exactly.

    data = stdlib_bytes(200_000)                 # the first 200 kB of the sorted top-level .py files
    tokens = byte_tokens(data)                   # int64 tensor of byte values
    train, held_out = split_tokens(tokens, 0.9)
    windows = TokenWindows(train, seq_len=64)    # fixed-length windows of seq_len + 1 tokens
    docs = TextDocuments(stdlib_documents(...))  # variable-length documents (paragraphs of code)
    unigram_loss(train, held_out)                # the loss of the best model that ignores context
"""
import math
import re
import sysconfig
from pathlib import Path

import torch
from torch.utils.data import Dataset

VOCAB_SIZE = 256  # byte-level tokens
PAD_ID = 0        # byte 0 never occurs in Python source text


def stdlib_dir() -> Path:
    """The running interpreter's standard-library folder (where `os.py` lives), from sysconfig."""
    return Path(sysconfig.get_paths()["stdlib"])


def stdlib_files() -> list[Path]:
    """The top-level `.py` files of the standard library, sorted by name (the same order everywhere)."""
    files = sorted(stdlib_dir().glob("*.py"))
    if not files:
        raise FileNotFoundError(f"no .py files in {stdlib_dir()}: this Python ships its standard library "
                                "compiled only; any folder of text files will do instead")
    return files


def stdlib_bytes(max_bytes: int) -> bytes:
    """The first `max_bytes` bytes of the standard library's source, files in sorted order, each file whole
    except the last one read."""
    parts, total = [], 0
    for path in stdlib_files():
        data = path.read_bytes().replace(b"\r\n", b"\n")
        parts.append(data[:max_bytes - total])
        total += len(parts[-1])
        if total >= max_bytes:
            break
    return b"".join(parts)


def byte_tokens(data: bytes) -> torch.Tensor:
    """Bytes -> int64 token ids in [0, 256)."""
    return torch.frombuffer(bytearray(data), dtype=torch.uint8).long()


def decode(tokens) -> str:
    """Token ids -> text (bytes that do not decode are shown as U+FFFD)."""
    return bytes(int(t) for t in tokens).decode("utf-8", errors="replace")


def split_tokens(tokens: torch.Tensor, train_fraction: float):
    """(train, held_out): the first `train_fraction` of the tokens and the rest, in order."""
    cut = int(len(tokens) * train_fraction)
    return tokens[:cut], tokens[cut:]


class TokenWindows(Dataset):
    """Non-overlapping windows of `seq_len + 1` tokens over a 1-D token tensor: item i is
    tokens[i·seq_len : i·seq_len + seq_len + 1] (the model reads the first seq_len, predicts the last seq_len)."""

    def __init__(self, tokens: torch.Tensor, seq_len: int):
        if tokens.dim() != 1 or len(tokens) < seq_len + 1:
            raise ValueError(f"need a 1-D tensor of at least seq_len + 1 = {seq_len + 1} tokens")
        self.tokens, self.seq_len = tokens, seq_len

    def __len__(self):
        return (len(self.tokens) - 1) // self.seq_len

    def __getitem__(self, i):
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        i %= len(self)
        return self.tokens[i * self.seq_len: i * self.seq_len + self.seq_len + 1]


def stdlib_documents(max_bytes: int, min_len: int = 16, max_len: int = 256) -> list[bytes]:
    """Variable-length documents: the paragraphs of the standard library's source (pieces between blank lines,
    each ending with its newline); pieces shorter than `min_len` bytes are dropped, longer than `max_len` cut to it."""
    text = stdlib_bytes(max_bytes)
    pieces = [p.strip(b"\n") + b"\n" for p in re.split(rb"\n[ \t]*\n", text)]
    return [p[:max_len] for p in pieces if len(p) >= min_len]


class TextDocuments(Dataset):
    """A list of byte strings as a Dataset of 1-D int64 token tensors of different lengths."""

    def __init__(self, documents: list[bytes]):
        self.documents = list(documents)

    def __len__(self):
        return len(self.documents)

    def __getitem__(self, i):
        return byte_tokens(self.documents[i])


def unigram_loss(train: torch.Tensor, held_out: torch.Tensor, vocab_size: int = VOCAB_SIZE) -> float:
    """Cross-entropy (nats per token) on `held_out` of the byte frequencies counted on `train` (add-one
    smoothing): the best a model can do without looking at context. A language model must beat it."""
    counts = torch.bincount(train, minlength=vocab_size).double() + 1.0
    log_p = (counts / counts.sum()).log()
    return float(-log_p[held_out].mean())


def uniform_loss(vocab_size: int = VOCAB_SIZE) -> float:
    """The loss of a model that knows nothing: log(vocab_size)."""
    return math.log(vocab_size)
