"""Helpers for the MTG tests: play a scenario on the reference engine, judge a trace, break a trace by hand."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from conformance.running.checking import check_trace
from reference_engine.kernel.choices import ScenarioChooser
from conformance.documents.scenarios import prepare_scenario
from reference_engine.mtg.judge import MTG
from reference_engine.mtg.engines.reference import MtgEngine

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "mtg"


def scenario(players, active, objects, actions, edition="2026-02-27", **extra) -> dict[str, Any]:
    """A prepared scenario with one step; ``actions`` are (player, effect list) pairs."""
    doc = {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": edition, "players": players,
           "active_player": active, "objects": objects,
           "script": [{"step": "main", "actions": [{"by": p, "effect": e} for p, e in actions]}], **extra}
    return prepare_scenario(doc, "test")[1]


def play(prepared: dict[str, Any]) -> dict[str, Any]:
    return MtgEngine().run(prepared, ScenarioChooser(prepared))


def fixture(fixture_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(prepared scenario, a deep copy of the expected trace) of a bundled MTG fixture."""
    document = json.loads((FIXTURES / f"{fixture_id}.json").read_text("utf-8"))
    return prepare_scenario(document["scenario"], fixture_id)[1], copy.deepcopy(document["expected_trace"])


def violations(prepared: dict[str, Any], trace: dict[str, Any]) -> dict[str, list[str]]:
    """Every MTG invariant's violations; fails the test if the trace is garbage or a check raises."""
    result = check_trace(prepared, trace, MTG.invariants_for(prepared["edition"]))
    assert result.outcome.status == "trace", result.outcome.message
    assert not result.check_errors, result.check_errors
    return result.violations


def exercised(prepared: dict[str, Any], trace: dict[str, Any]) -> dict[str, int]:
    return check_trace(prepared, trace, MTG.invariants_for(prepared["edition"])).exercised


def find(entries: list[dict], **match) -> int:
    for i, entry in enumerate(entries):
        if all(entry.get(k) == v for k, v in match.items()):
            return i
    raise LookupError(match)


def ability(id_, trigger, effect=(), **extra) -> dict[str, Any]:
    return {"id": id_, "trigger": trigger, **extra, "effect": list(effect)}


def obj(id_, owner, zone="field", abilities=(), **extra) -> dict[str, Any]:
    out = {"id": id_, "owner": owner, "zone": zone, **extra}
    if abilities:
        out["abilities"] = list(abilities)
    return out
