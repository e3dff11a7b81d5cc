"""The wire between the grader and the runner: two inherited pipes.

Grader -> runner: one JSON document (the job: key, settings, cells), then end of file. The sandbox holds no
write end of that pipe, so nothing in it can add to the job.
Runner -> grader: lines `SEQ MAC BODY`, where BODY is a JSON object and MAC is HMAC-SHA256 over `SEQ BODY`,
keyed by a secret that arrives in the job, before any student code runs. The grader accepts a line only with
the next sequence number and a valid MAC, so nothing a notebook prints or writes to an inherited descriptor is
taken for a result, and nothing can be dropped or replayed unnoticed. Lines are capped on the grader's side.

The runner's half is built from C-implemented pieces (OpenSSL HMAC, os.write, the C JSON encoder), captured
before student code runs: no later change to a Python module can alter what gets signed or sent.
This file is imported by the runner inside the sandbox as a top-level module: stdlib only.
"""
import _hashlib
import _json
import hmac
import json
import os
import secrets
import threading

MAX_LINE = 4 * 1024 * 1024  # a result line holds capped outputs, far below this


class ChannelError(RuntimeError):
    """A line that is too long, malformed, out of sequence or not signed with the key."""


def new_key() -> bytes:
    return secrets.token_bytes(32)


def encoder():
    """obj -> compact, key-sorted JSON bytes, through the C encoder only."""
    encode = _json.make_encoder(None, _refuse, _json.encode_basestring_ascii, None, ":", ",", True, False, True)
    join, to_bytes = "".join, str.encode
    return lambda obj: to_bytes(join(encode(obj, 0)))


def _refuse(obj):
    raise TypeError(f"not JSON: {type(obj).__name__}")


def sender(fd: int, key: bytes):
    """send(body_bytes) for the runner: numbers, signs and writes one line. Holds an HMAC object, not the key.
    If the grader is gone there is no one to report to, so the process ends. A forked child of the runner
    sends nothing: only the runner speaks for the notebook."""
    base = _hashlib.hmac_new(key, b"", "sha256")
    lock, seq, runner = threading.Lock(), [0], os.getpid()
    write, leave, broken, getpid = os.write, os._exit, OSError, os.getpid

    def send(body: bytes) -> None:
        if getpid() != runner:
            return
        with lock:
            head = b"%d " % seq[0]
            seq[0] += 1
            mac = base.copy()
            mac.update(head)
            mac.update(body)
            line = head + mac.hexdigest().encode() + b" " + body + b"\n"
            try:
                while line:
                    line = line[write(fd, line):]
            except broken:
                leave(3)

    return send


class Verifier:
    """The grader's half: checks each line and returns its body as a dict; raises ChannelError otherwise."""

    def __init__(self, key: bytes):
        self._key = key
        self.next_seq = 0

    def check(self, line: bytes) -> dict:
        parts = line.split(b" ", 2)
        if len(parts) != 3 or not parts[0].isdigit():
            raise ChannelError("malformed line")
        seq, mac, body = parts
        expected = hmac.new(self._key, seq + b" " + body, "sha256").hexdigest().encode()
        if not hmac.compare_digest(expected, mac):
            raise ChannelError("bad MAC")
        if int(seq) != self.next_seq:
            raise ChannelError(f"sequence {int(seq)}, expected {self.next_seq}")
        self.next_seq += 1
        try:
            message = json.loads(body)
        except ValueError:
            raise ChannelError("body is not JSON") from None
        if not isinstance(message, dict):
            raise ChannelError("body is not a JSON object")
        return message


class LineReader:
    """Splits bytes read from a descriptor into lines no longer than MAX_LINE."""

    def __init__(self):
        self._buffer = b""

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        if any(len(line) > MAX_LINE for line in lines) or len(self._buffer) > MAX_LINE:
            raise ChannelError(f"line longer than {MAX_LINE} bytes")
        return lines
