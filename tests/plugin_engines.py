"""In-process engines for the pytest-plugin and report tests (imported as ``plugin_engines:NAME`` with tests/ on
PYTHONPATH): each misbehaves in one chosen way, so that one run shows failures, errors and skips apart."""

from __future__ import annotations

from reference_engine.kernel.engine import Engine, Skipped
from conformance.adapters.registry import load_engine


class _Wrapped(Engine):
    inner_spec = "mutant:mw-lifo"

    def __init__(self):
        self.inner = load_engine(self.inner_spec, "momon-wonder")

    @property
    def info(self):
        return self.inner.info

    def run(self, scenario, chooser):
        return self.inner.run(scenario, chooser)


class MixedLifo(_Wrapped):
    """Last in, first out (fails mw.queue-fifo and others), and raises on every scenario with 3, 6, ... objects:
    the rules it does not fail get no verdict (errored)."""

    def run(self, scenario, chooser):
        if len(scenario["objects"]) % 3 == 0:
            raise RuntimeError("MixedLifo: refusing scenarios with a multiple of 3 objects, on purpose")
        return self.inner.run(scenario, chooser)


class DeclinesAll(_Wrapped):
    """Declines every scenario: every rule is skipped, with this reason."""

    inner_spec = "reference"

    def run(self, scenario, chooser):
        raise Skipped("DeclinesAll: no Summon support yet", issue_url="https://example.org/issues/1")


class DeclinesMost(_Wrapped):
    """Plays like the reference engine a scenario in ten, and declines the others."""

    inner_spec = "reference"
    seen = 0

    def run(self, scenario, chooser):
        DeclinesMost.seen += 1
        if DeclinesMost.seen % 10:
            raise Skipped("DeclinesMost: signals are not supported")
        return self.inner.run(scenario, chooser)


class DropsAmong(_Wrapped):
    """The reference engine, but its traces leave out the optional ``among`` of every choice entry: an incidental
    field no rule needs, so every fixture must still pass."""

    inner_spec = "reference"

    def run(self, scenario, chooser):
        trace = self.inner.run(scenario, chooser)
        for entry in trace["entries"]:
            if entry["kind"] == "choice":
                entry.pop("among", None)
        return trace


class DeclinesForReasons(_Wrapped):
    """The reference engine, declining scenarios for one of two reasons by their number of objects (see
    :meth:`reason`): the console must count every reason, not only the first."""

    inner_spec = "reference"

    @staticmethod
    def reason(scenario) -> str | None:
        return {0: "DeclinesForReasons: no support for a multiple of 3 objects",
                1: "DeclinesForReasons: no support for 3n+1 objects"}.get(len(scenario["objects"]) % 3)

    def run(self, scenario, chooser):
        reason = self.reason(scenario)
        if reason:
            raise Skipped(reason)
        return self.inner.run(scenario, chooser)


def _zone_of(scenario):
    """The engine's own helper that fails: where the traceback must point (see RaisesInHelper)."""
    return {obj["id"]: obj["zone_name"] for obj in scenario["objects"]}  # no such field: KeyError


class RaisesInHelper(_Wrapped):
    """Raises KeyError('zone_name') from its own helper on every scenario that has objects, after a call into the
    standard library (json): the report must say where, in the engine's own frames only (tests/test_engine_exceptions.py)."""

    inner_spec = "reference"

    def run(self, scenario, chooser):
        import json

        json.loads(json.dumps(scenario))  # a standard-library frame on the way, left out of the traceback
        if scenario["objects"]:
            _zone_of(scenario)
        return self.inner.run(scenario, chooser)


class HugeSkipReason(_Wrapped):
    """The reference engine, but it skips every scenario with an even number of objects giving a 30 MiB reason."""

    inner_spec = "reference"

    def run(self, scenario, chooser):
        if len(scenario["objects"]) % 2 == 0:
            raise Skipped("x" * (30 * 1024 * 1024))
        return self.inner.run(scenario, chooser)


class RaisesKeyboardInterrupt(_Wrapped):
    """The reference engine, but it raises KeyboardInterrupt itself (no signal) on scenarios with an even number of
    objects: an engine's bug, not the user's Ctrl-C."""

    inner_spec = "reference"

    def run(self, scenario, chooser):
        if len(scenario["objects"]) % 2 == 0:
            raise KeyboardInterrupt
        return self.inner.run(scenario, chooser)


class EmptyTrace(_Wrapped):
    """Answers every scenario with a trace of no entries: nothing happens, so most rules never apply."""

    def run(self, scenario, chooser):
        return {"format": "trigger-conformance/trace/1", "entries": []}
