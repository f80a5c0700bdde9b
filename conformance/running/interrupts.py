"""SIGINT and SIGTERM during a run, for ``trigger-conformance`` and the pytest plugin alike.

Both signals stop a run the way Ctrl-C does (a KeyboardInterrupt, once), so that engines are killed, workers
stopped, temporary folders removed and a partial report written; the exit code is then 128 + the signal number
(130, 143). While active, ``RUN_TOKEN`` in the environment marks every process the run starts (pytest-xdist workers,
engines, and whatever they start), so that what outlives an interrupted run is found and killed wherever it went.
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from typing import Any

INTERRUPTED = 130  # the exit code of a run interrupted by no signal we know of (Ctrl-C's)


def exit_code(name: str | None) -> int:
    """128 + the number of the signal ``name`` (130 for SIGINT, 143 for SIGTERM); 130 without one."""
    return 128 + signal.Signals[name].value if name else INTERRUPTED


class Interrupts:
    """The signal handling of one run. ``signums``: the signals turned into a KeyboardInterrupt; ``forward``: pass a
    signal on to the run's processes as SIGINT (so that workers stop their engines and exit at once);
    ``outermost``: what the command uses. Without it (the pytest plugin), the run is left alone when an outer run
    (the command) already marks its processes, and a signal whose handler is not the default one keeps it.

    :attr:`received` names the first signal handled (None until then)."""

    def __init__(self, signums: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM), forward: bool = True,
                 outermost: bool = True):
        self.signums, self.forward, self.outermost = signums, forward, outermost
        self.records_signals = True  # conformance.running.checking.raised_by_code reads received through the handler
        self.received: str | None = None
        self.token: str | None = None
        self._previous: dict[int, Any] = {}
        self._environ: str | None = None

    def start(self) -> "Interrupts":
        from conformance.adapters.process import RUN_TOKEN

        self._environ = os.environ.get(RUN_TOKEN)
        if self._environ and not self.outermost:  # an outer run marks its processes and cleans up after them
            return self
        self.token = secrets.token_hex(12)
        os.environ[RUN_TOKEN] = self.token
        for signum in self.signums:
            try:
                if self.outermost or signal.getsignal(signum) in (signal.SIG_DFL, None):
                    self._previous[signum] = signal.signal(signum, self._handle)
            except (ValueError, OSError):  # not the main thread: signals keep their default meaning
                pass
        return self

    def _handle(self, signum, frame) -> None:
        first = self.received is None
        if first:
            self.received = signal.Signals(signum).name
        if self.forward:
            self._forward()
        if first:
            raise KeyboardInterrupt(self.received)

    def _forward(self) -> None:
        from conformance.adapters.process import RUN_TOKEN, tagged_processes

        for pid in tagged_processes(RUN_TOKEN, self.token):
            try:
                os.kill(pid, signal.SIGINT)
            except OSError:
                pass

    def kill_leftovers(self, interrupted: bool) -> None:
        """After an interrupted run: give its processes a moment to exit, then SIGKILL what is left of them. (A run
        that ended normally closed its engines, and their descendants, itself.)"""
        from conformance.adapters.process import RUN_TOKEN, kill_tagged, tagged_processes

        if not interrupted or self.token is None:
            return
        deadline = time.monotonic() + 2.0  # workers stop their own engines; one that ignores signals is killed
        while tagged_processes(RUN_TOKEN, self.token) and time.monotonic() < deadline:
            time.sleep(0.05)
        kill_tagged(RUN_TOKEN, self.token)

    def stop(self, interrupted: bool = False) -> None:
        """Restore the signal handlers and the environment; after an interrupt (``interrupted``, or a signal
        received here), kill what is left of the run's processes."""
        from conformance.adapters.process import RUN_TOKEN

        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous = {}
        if self.token is None:
            return
        self.kill_leftovers(interrupted or bool(self.received))
        if self._environ is not None and self.outermost:
            os.environ[RUN_TOKEN] = self._environ
        elif os.environ.get(RUN_TOKEN) == self.token:
            del os.environ[RUN_TOKEN]
        self.token = None

    def __enter__(self) -> "Interrupts":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
