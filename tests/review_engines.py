"""In-process engines for tests/test_review_findings.py (imported as ``review_engines:NAME`` with tests/ on the
path): each misbehaves in one chosen way."""

from __future__ import annotations

from reference_engine.kernel.engine import Engine
from conformance.adapters.registry import load_engine


class KeyErrorEveryThird(Engine):
    """Last in, first out (fails mw.queue-fifo, the same way every time), and raises KeyError on every 3rd call to
    ``run``: an engine that errors now and then, but never answers the same scenario two different ways."""

    def __init__(self):
        self.inner = load_engine("mutant:mw-lifo", "momon-wonder")
        self.calls = 0

    @property
    def info(self):
        return self.inner.info

    def run(self, scenario, chooser):
        self.calls += 1
        if self.calls % 3 == 0:
            raise KeyError(f"KeyErrorEveryThird: call {self.calls}")
        return self.inner.run(scenario, chooser)


def not_an_engine():
    """An engine factory that returns an int: ``load_engine`` must say it is "an int", not "a int"."""
    return 42
