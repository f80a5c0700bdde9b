"""Golden scenario files: the fixture document (``schemas/fixture.schema.json``) loaded and validated, the bundled
fixtures of a ruleset, and a trace in canonical form (engine-assigned ids renamed in order of first appearance) for
comparing two traces entry by entry. Judging an engine on a fixture is :mod:`conformance.running.fixtures`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from reference_engine.kernel import registry
from conformance.documents.json_io import validate
from conformance.documents.scenarios import prepare_scenario

# Which fields hold engine-assigned ids, and of what: renamed per category in order of first appearance.
# E events, T trigger instances, K Summon packages (Momon Wonder), S State-Based Conditions / state-based actions
# checks, D delayed triggered abilities (MTG), V activations of a non-triggered ability (Redemption) and activated
# abilities put on the stack (MTG).
ID_OF_ENTRY = {"event": "E", "trigger": "T", "sbc_check": "S", "sba_check": "S", "delayed_create": "D",
               "activation_begin": "V", "activation_end": "V", "activate": "V"}  # the "id" field of these entry kinds
ID_FIELDS = {"trigger": "T", "event": "E", "package": "K", "queue": "K", "delayed": "D", "created_by": "T",
             "group": "E", "activated": "V"}
ID_LIST_FIELDS = {"among": "T", "chosen": "T"}
CAUSE_IDS = {"resolution": "T", "sbc": "S", "snatch_check": "K", "sba": "S", "trigger": "T", "push": "T", "resolved": "T",
             "activation": "V", "activated": "V"}


@dataclass
class Fixture:
    id: str
    description: str
    rule_keys: list[str]
    scenario: dict[str, Any]  # prepared: options resolved
    expected_trace: dict[str, Any]
    document: dict[str, Any] = field(repr=False, default_factory=dict)


def load_fixture(document: Any, where: str) -> Fixture:
    """Validate a fixture document. Raises DocumentError or ScenarioError naming ``where``."""
    validate(document, "fixture", where)
    _, scenario = prepare_scenario(document["scenario"], f"{where} (scenario)")
    return Fixture(document["id"], document["description"], list(document["rule_keys"]), scenario,
                   document["expected_trace"], document)


def bundled_fixtures(ruleset: str) -> list[Fixture]:
    """Every fixture the ruleset's unit ships (the bundled rulesets: ``fixtures/<ruleset>/``), in file-name order;
    none for a unit that ships none. Raises KeyError for an unknown ruleset."""
    loaded_unit = registry.loaded(ruleset)
    if loaded_unit.manifest.fixtures is None:
        return []
    folder = loaded_unit.resource(loaded_unit.manifest.fixtures)
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.endswith(".json"):
            out.append(load_fixture(json.loads(path.read_text("utf-8")), f"fixtures/{ruleset}/{path.name}"))
    return out


def canonical_entries(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """Trace entries with every engine-assigned id renamed by category and order of first appearance."""
    names: dict[tuple[str, str], str] = {}
    counters: dict[str, int] = {}

    def rename(category: str, value):
        if not isinstance(value, str) or value == "main":
            return value
        if (category, value) not in names:
            counters[category] = counters.get(category, 0) + 1
            names[(category, value)] = f"{category}{counters[category]}"
        return names[(category, value)]

    out = []
    for entry in trace["entries"]:
        entry = dict(entry)
        if entry["kind"] in ID_OF_ENTRY and "id" in entry:
            entry["id"] = rename(ID_OF_ENTRY[entry["kind"]], entry["id"])
        for key, category in ID_FIELDS.items():
            if key in entry:
                entry[key] = rename(category, entry[key])
        for key, category in ID_LIST_FIELDS.items():
            if isinstance(entry.get(key), list):
                entry[key] = [rename(category, v) for v in entry[key]]
        if isinstance(entry.get("cause"), dict):
            entry["cause"] = {k: rename(CAUSE_IDS[k], v) if k in CAUSE_IDS else v for k, v in entry["cause"].items()}
        out.append(entry)
    return out


def first_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """Where two traces first take a different course, in words; None if they agree."""
    a, b = canonical_entries(expected), canonical_entries(actual)
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"entry {i}: expected {json.dumps(x)}, got {json.dumps(y)}"
    if len(a) != len(b):
        longer, which = (a, "expected") if len(a) > len(b) else (b, "actual")
        return f"entry {min(len(a), len(b))}: the {which} trace goes on with {json.dumps(longer[min(len(a), len(b))])}"
    return None
