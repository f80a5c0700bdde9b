"""How far a run is, shown while it runs, by ``trigger-conformance run`` and by the pytest plugin alike.

On a terminal, one live line redrawn in place; elsewhere (a CI log, a pipe), the same as a plain line every
``interval`` seconds::

    [3/21 rules] 400/400 scenarios, 1 failure(s), 1m05s elapsed, ~2m10s left

The remaining time is estimated from the rate so far: while the stream is explored, from the scenarios played per
second (the time still to explore); while rules are concluded, from the seconds per rule concluded so far.
"""

from __future__ import annotations

import time

DEFAULT_INTERVAL = 30.0  # seconds between plain progress lines when the output is not a terminal


class Progress:
    """The progress of one run: ``rules`` rule keys to conclude, ``scenarios`` in the stream. ``out`` is a text
    stream; the line is live when ``out.isatty()`` (unless ``live`` says otherwise), else a plain line starting with
    ``prefix`` is printed at most every ``interval`` seconds (and only after the first second)."""

    def __init__(self, out, rules: int, scenarios: int, interval: float = DEFAULT_INTERVAL,
                 live: bool | None = None, prefix: str = "progress: "):
        self.out, self.rules, self.scenarios, self.interval, self.prefix = out, rules, scenarios, interval, prefix
        self.live = bool(getattr(out, "isatty", lambda: False)()) if live is None else live
        self.started = time.monotonic()
        self.played = self.done = self.failures = 0
        self.concluding_since: float | None = None
        self.last = 0.0
        self.shown = False

    def line(self) -> str:
        elapsed = time.monotonic() - self.started
        if self.concluding_since is None:
            rate = self.played / elapsed if elapsed > 0 else 0
            left = f"~{duration((self.scenarios - self.played) / rate)} to explore" if rate and self.played else "?"
        else:
            spent = time.monotonic() - self.concluding_since
            left = f"~{duration(spent / self.done * (self.rules - self.done))}" if self.done else "?"
        return (f"[{self.done}/{self.rules} rules] {self.played}/{self.scenarios} scenarios, {self.failures} "
                f"failure(s), {duration(elapsed)} elapsed, {left} left")

    def show(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.live:
            if force or now - self.last >= 0.2:
                self.out.write("\r\x1b[2K" + self.line())
                self.out.flush()
                self.last, self.shown = now, True
        elif force or now - self.last >= self.interval:
            if now - self.started >= 1.0 or force:
                self.out.write(self.prefix + self.line() + "\n")
                self.out.flush()
            self.last = now

    def clear(self) -> None:
        """Erase the live line (before other output is printed, and at the end)."""
        if self.live and self.shown:
            self.out.write("\r\x1b[2K")
            self.out.flush()
            self.shown = False

    def explored(self, played: int) -> None:
        """``played`` scenarios of the stream have been played so far."""
        self.played = played
        self.show()

    def concluded(self, failed: bool) -> None:
        """One more rule has its verdict."""
        first = self.concluding_since is None
        if first:
            self.concluding_since = time.monotonic()
        self.done += 1
        self.failures += failed
        # The first verdict closes the exploration: a plain line then always says how many scenarios it played.
        self.show(force=first and not self.live)


def duration(seconds: float) -> str:
    """``45s``, ``2m05s``, ``1h03m``."""
    seconds = int(seconds)
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m" if seconds >= 3600 else (
        f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s")
