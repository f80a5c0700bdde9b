"""Helpers shared by tests/test_redemption_*.py: fixtures, prepared scenarios, reference traces and trace surgery."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

from conformance.running.checking import ScenarioCheck, check_trace
from reference_engine.kernel.choices import ScenarioChooser
from conformance.documents.scenarios import prepare_scenario
from reference_engine.redemption.judge import REDEMPTION
from reference_engine.kernel.registry import reference_engine_for

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "redemption"
EDITION = REDEMPTION.default_edition


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))


def all_fixtures() -> list[dict[str, Any]]:
    return [json.loads(p.read_text("utf-8")) for p in sorted(FIXTURES.glob("*.json"))]


def prepared(document: dict[str, Any], **options: Any) -> dict[str, Any]:
    """The scenario with its options resolved; ``options`` override the document's own."""
    document = copy.deepcopy(document)
    if options:
        document["options"] = {**document.get("options", {}), **options}
    return prepare_scenario(document, document.get("id", "test scenario"))[1]


def reference_trace(scenario: dict[str, Any]) -> dict[str, Any]:
    return reference_engine_for(REDEMPTION.name).run(scenario, ScenarioChooser(scenario))


def judge(scenario: dict[str, Any], trace: dict[str, Any], *keys: str) -> ScenarioCheck:
    """Run the named invariants (every Redemption invariant when none is named) on a trace."""
    invariants = [REDEMPTION.invariant(k) for k in keys] if keys else list(REDEMPTION.invariants)
    return check_trace(scenario, trace, invariants)


class Surgery:
    """A copy of a trace's entries, edited in place by small named operations, for traces that break one rule."""

    def __init__(self, trace: dict[str, Any]):
        self.entries: list[dict[str, Any]] = copy.deepcopy(trace["entries"])

    def trace(self) -> dict[str, Any]:
        return {"format": "trigger-conformance/trace/1", "entries": self.entries}

    def index(self, **match: Any) -> int:
        for i, entry in enumerate(self.entries):
            if all(entry.get(k) == v for k, v in match.items()):
                return i
        raise LookupError(f"no entry {match}")

    def resolution(self, trigger: str) -> tuple[int, int]:
        """(first, last) index of a trigger's resolve_begin ... resolve_end."""
        return self.index(kind="resolve_begin", trigger=trigger), self.index(kind="resolve_end", trigger=trigger)

    def cut(self, first: int, last: int) -> list[dict[str, Any]]:
        taken = self.entries[first:last + 1]
        del self.entries[first:last + 1]
        return taken

    def insert(self, at: int, block: list[dict[str, Any]]) -> None:
        self.entries[at:at] = block

    def replace(self, first: int, last: int, block: list[dict[str, Any]]) -> None:
        self.entries[first:last + 1] = block

    def edit(self, where: Callable[[dict], bool] | int, **fields: Any) -> None:
        i = where if isinstance(where, int) else next(k for k, e in enumerate(self.entries) if where(e))
        self.entries[i].update(fields)


def resolve(trigger: str) -> list[dict[str, Any]]:
    return [{"kind": "resolve_begin", "trigger": trigger}, {"kind": "resolve_end", "trigger": trigger}]


def removed(trigger: str, reason: str) -> list[dict[str, Any]]:
    return [{"kind": "removed", "trigger": trigger, "reason": reason}]


def asked(player: str, trigger: str, answer: bool) -> list[dict[str, Any]]:
    return [{"kind": "choice", "player": player, "decision": "optional", "among": [trigger], "chosen": answer}]
