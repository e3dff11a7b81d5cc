"""One run of the runner: hand it the job, read its signed results, hold it to its deadlines, and end with
every process it started gone, whatever the notebook did.

Deadlines are kept here, outside the jail, so a cell that ignores or swallows the runner's own timer, a runner
that hangs or a notebook that spins forever is still stopped: the cell running at the deadline, and every cell
after it, get no result.
"""
import json
import os
import selectors
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import channel
from .sandbox import Jail, Limits, Sandbox

STARTUP_S = 120.0  # imports (torch, course) before the first cell, on a busy machine
GRACE_S = 10.0  # past a cell's timeout: the runner stops the cell itself and sends its result
OUTPUT_KEPT = 64 * 1024  # of what the process writes to its stdout and stderr (for the grading log)
MAX_FINDINGS = 1000
CHUNK = 65536


@dataclass
class Outcome:
    ready: bool = False
    results: dict = field(default_factory=dict)  # cell index -> the runner's result
    findings: list = field(default_factory=list)  # audit-hook reports, in order
    end: str = ""  # finished, died, cell_timeout, notebook_timeout, channel, no_start, cancelled
    running: int | None = None  # the cell that was running when the run ended early
    exit: str = ""  # how the process ended, in words
    problem: str = ""  # what was wrong with the channel
    output: str = ""
    seconds: float = 0.0
    # After the last result, the runner's diagnosis (catalogue.behaviour): {"found", "seconds", "cut"}; empty
    # when there was none. A run that ends badly after its last result is still "finished": nothing after the
    # last result changes a score, and what went wrong is kept in `diagnosis_problem`.
    diagnoses: dict = field(default_factory=dict)
    diagnosis_problem: str = ""


def _exit_words(returncode: int | None, isolated: bool, out_of_memory: bool, limits: Limits) -> str:
    if out_of_memory:
        return f"ran out of memory (more than {limits.memory_bytes / 2**30:g} GiB)"
    if returncode is None:
        return "closed its channel to the grader"
    # bwrap reports a signal that killed the runner as 128 + its number; a direct child's returncode is -number.
    number = -returncode if returncode < 0 else returncode - 128 if isolated and returncode > 128 else None
    if number == signal.SIGXCPU:
        return f"used more than {limits.notebook_timeout:g} s of CPU time"
    if number == signal.SIGXFSZ:
        return f"wrote a file larger than {limits.file_bytes // 2**20} MB"
    if number is not None:
        try:
            return f"was killed by signal {signal.Signals(number).name}"
        except ValueError:
            return f"was killed by signal {number}"
    return f"exited with status {returncode}"


class _Run:
    """The grader's side of one run: three pipes (the job out, signed lines in, raw output in) and deadlines."""

    def __init__(self, sandbox: Sandbox, jail: Jail, job: dict):
        key = channel.new_key()
        self.sandbox, self.jail, self.limits = sandbox, jail, sandbox.limits
        self.order = [cell["index"] for cell in job["cells"]]
        self.outcome, self.verifier, self.lines = Outcome(), channel.Verifier(key), channel.LineReader()
        self.payload = json.dumps(dict(job, key=key.hex(), workdir=jail.workdir, data=jail.data,
                                       home_seed=jail.home_seed)).encode()
        self.sent, self.output = 0, bytearray()
        self.started = time.monotonic()
        self.cell_deadline = self.started + STARTUP_S
        self.selector = selectors.DefaultSelector()
        self.fds: set[int] = set()

    def go(self) -> Outcome:
        try:
            self._start()
            self._loop()
            out_of_memory, returncode = self.jail.out_of_memory(), self.process.poll()
            self.jail.stop()
            self._drain_output()
        finally:
            for fd in self.fds:
                os.close(fd)
            self.selector.close()
        outcome = self.outcome
        if outcome.end not in ("finished", "cancelled") and len(outcome.results) == len(self.order):
            outcome.diagnosis_problem = f"{outcome.end}{': ' + outcome.problem if outcome.problem else ''}"
            outcome.end, outcome.problem, outcome.diagnoses = "finished", "", {}
        if outcome.end != "finished":
            outcome.running = next((index for index in self.order if index not in outcome.results), None)
        if outcome.end in ("died", "no_start"):
            outcome.exit = _exit_words(returncode, self.sandbox.isolate, out_of_memory, self.limits)
        outcome.output = self.output.decode(errors="replace")
        outcome.seconds = time.monotonic() - self.started
        return outcome

    def _start(self) -> None:
        job_r, self.job_w = os.pipe()
        msg_r, msg_w = os.pipe()
        self.out_r, out_w = os.pipe()
        self.fds = {self.job_w, msg_r, self.out_r}
        try:
            self.process = self.jail.start(self.jail.runner(str(job_r), str(msg_w)), (job_r, msg_w), out_w)
        finally:
            for fd in (job_r, msg_w, out_w):  # the child has its own copies
                os.close(fd)
        self.msg_r = msg_r
        for fd, events in ((self.job_w, selectors.EVENT_WRITE), (msg_r, selectors.EVENT_READ),
                           (self.out_r, selectors.EVENT_READ)):
            os.set_blocking(fd, False)
            self.selector.register(fd, events)

    def _loop(self) -> None:
        outcome, wall_deadline = self.outcome, self.started + self.limits.notebook_timeout
        try:
            while not outcome.end:
                now = time.monotonic()
                if self.sandbox.cancelled.is_set():
                    outcome.end = "cancelled"
                elif now >= wall_deadline:
                    outcome.end = "notebook_timeout" if outcome.ready else "no_start"
                elif now >= self.cell_deadline:
                    outcome.end = "cell_timeout" if outcome.ready else "no_start"
                else:
                    for selected, _ in self.selector.select(min(wall_deadline, self.cell_deadline, now + 0.5) - now):
                        self._ready(selected.fd)
                        if outcome.end:
                            break
                    if not outcome.end and (self.msg_r not in self.selector.get_map()
                                            or self.process.poll() is not None):
                        self._last_words()
        except channel.ChannelError as error:
            outcome.end, outcome.problem = "channel", str(error)

    def _ready(self, fd: int) -> None:
        if fd == self.job_w:
            try:
                self.sent += os.write(fd, self.payload[self.sent:self.sent + CHUNK])
            except BlockingIOError:
                pass
            except BrokenPipeError:  # the runner is gone: the loop sees that next
                self.sent = len(self.payload)
            if self.sent >= len(self.payload):  # end of file tells the runner the job is whole
                self.selector.unregister(fd)
                self.fds.discard(fd)
                os.close(fd)
            return
        data = os.read(fd, CHUNK)
        if not data:
            self.selector.unregister(fd)
        elif fd == self.out_r:
            self.output += data[:max(OUTPUT_KEPT - len(self.output), 0)]
        else:
            for line in self.lines.feed(data):
                self._handle(self.verifier.check(line))
                if self.outcome.end:
                    break

    def _last_words(self) -> None:
        """The runner ended, or closed its channel: read what it sent before (a runner that finished may have
        exited before all of it was read), then call it dead unless it said it finished."""
        while self.msg_r in self.selector.get_map() and not self.outcome.end:
            try:
                self._ready(self.msg_r)
            except BlockingIOError:  # nothing more for now: a child of the notebook holds the pipe open
                break
        if not self.outcome.end:
            try:
                self.process.wait(timeout=2)
            except Exception:  # alive without its channel: stopped by the caller
                pass
            self.outcome.end = "died" if self.outcome.ready else "no_start"

    def _handle(self, body: dict) -> None:
        outcome, kind = self.outcome, body.get("type")
        expected = self.order[len(outcome.results)] if len(outcome.results) < len(self.order) else None
        if kind == "finding" and outcome.ready:
            if len(outcome.findings) < MAX_FINDINGS:
                outcome.findings.append(body)
            return
        if kind == "finished" and outcome.ready and expected is None:
            outcome.end = "finished"
            return
        if kind == "diagnoses" and outcome.ready and expected is None and not outcome.diagnoses:
            outcome.diagnoses = {"found": body.get("found"), "seconds": body.get("seconds"), "cut": body.get("cut")}
            return
        if kind == "ready" and not outcome.ready:
            outcome.ready = True
        elif kind == "result" and outcome.ready and body.get("index") == expected:
            outcome.results[expected] = body
        else:
            raise channel.ChannelError(f"unexpected {str(kind)[:40]!r} message")
        self.cell_deadline = time.monotonic() + self.limits.cell_timeout + GRACE_S

    def _drain_output(self) -> None:
        """What the processes wrote before they were killed (every writer is gone now)."""
        try:
            while len(self.output) < OUTPUT_KEPT:
                data = os.read(self.out_r, CHUNK)
                if not data:
                    break
                self.output += data[:OUTPUT_KEPT - len(self.output)]
        except BlockingIOError:
            pass


def run(sandbox: Sandbox, scratch: Path, job: dict) -> Outcome:
    """Runs `job` (settings and cells; the key is added here) in a jail; never raises for what the notebook does."""
    with sandbox.jail(scratch) as jail:
        return _Run(sandbox, jail, job).go()
