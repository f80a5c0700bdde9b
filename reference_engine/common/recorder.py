"""Writes a trace: numbered ids for events (E1...), trigger instances (T1...), packages (K1...) and State-Based
Conditions checks (S1...), and strictly increasing chronological positions for events."""

from __future__ import annotations

from itertools import count
from typing import Any

from reference_engine.common.vocabulary import ZoneTracker

DEFAULT_MAX_ENTRIES = 20_000  # the guard against scenarios that loop forever (ReferenceEngine's max_trace_entries)


class Recorder:
    """Appends trace entries and keeps the zones of every object up to date as events happen."""

    def __init__(self, scenario: dict[str, Any], max_entries: int = DEFAULT_MAX_ENTRIES):
        self.entries: list[dict[str, Any]] = []
        self.zones = ZoneTracker(scenario)
        self.max_entries = max_entries
        self._ids = {prefix: count(1) for prefix in "ETKS"}
        self._position = count(1)

    def new_id(self, prefix: str) -> str:
        if prefix not in self._ids:  # a ruleset's own kind of id (e.g. Redemption's activations, A1...)
            self._ids[prefix] = count(1)
        return f"{prefix}{next(self._ids[prefix])}"

    def add(self, kind: str, **fields: Any) -> dict[str, Any]:
        if len(self.entries) >= self.max_entries:
            raise RuntimeError(
                f"the scenario did not finish within its budget of {self.max_entries} trace entries: it loops "
                f"forever, or is simply this long (many simultaneous triggers); raise the budget with "
                f"--max-trace-entries N"
            )
        entry = {"kind": kind, **fields}
        self.entries.append(entry)
        return entry

    def event(self, type_: str, cause: dict[str, Any], **fields: Any) -> tuple[dict[str, Any], dict[str, str]]:
        """Record an event at the next chronological position; returns it and where it moved its subject from
        (see :meth:`ZoneTracker.apply`)."""
        entry = self.add("event", id=self.new_id("E"), position=next(self._position), type=type_, cause=cause,
                         **{k: v for k, v in fields.items() if v is not None})
        return entry, self.zones.apply(entry)

    def trace(self) -> dict[str, Any]:
        return {"format": "trigger-conformance/trace/1", "entries": self.entries}
