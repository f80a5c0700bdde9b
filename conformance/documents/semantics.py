"""The checks a document must pass beyond its schema, shared by ``validate --as KIND`` and the command that uses each
kind, so that ``validate`` accepts exactly what ``replay`` and ``run`` accept.

Kept apart from :mod:`conformance.documents.json_io` (which the process adapter uses) because these checks read rulesets and
the judge's trace structure, which the adapters must never import.
"""

from __future__ import annotations

import re
from typing import Any

from reference_engine.kernel.errors import DocumentError



def _trace_problems(scenario: dict[str, Any], trace: Any, at: str) -> list[tuple[str, str]]:
    """Where a schema-valid trace contradicts itself or its scenario, as ``(json_path, message)`` pairs."""
    from reference_engine.kernel.traceview import TraceView

    if not isinstance(trace, dict):
        return []
    try:
        found = TraceView(scenario, trace, scenario["options"]).structure_problems()
    except Exception as exc:  # the judge's reading of a trace it was not written for: say where, do not crash
        return [(at, f"the trace cannot be read: {type(exc).__name__}: {exc}")]
    out = []
    for problem in found[:5]:
        entry = re.match(r"entry (\d+): (.*)", problem, re.S)
        out.append((f"{at}.entries[{entry.group(1)}]", entry.group(2)) if entry else (at, problem))
    return out


def check_replay_document(document: dict[str, Any], where: str):
    """What ``trigger-conformance replay`` requires of a schema-valid replay file, beyond its schema.

    Returns ``(ruleset, prepared scenario, invariant)``. Raises DocumentError or ScenarioError naming ``where`` and
    the JSON path at fault: an invalid or inconsistent scenario, a ruleset or edition other than the scenario's, a
    rule key or rule number the ruleset does not have, a choice log that is not bytes, a trace that contradicts the
    scenario.
    """
    from conformance.documents.scenarios import prepare_scenario

    ruleset, scenario = prepare_scenario(document["scenario"], f"{where} (at $.scenario)")
    found: list[tuple[str, str]] = []
    if document["ruleset"] != ruleset.name:
        found.append(("$.ruleset", f"the file says {document['ruleset']!r} but its scenario is {ruleset.name}"))
    if document["edition"] != scenario["edition"]:
        found.append(("$.edition", f"the file says {document['edition']!r} but its scenario is edition "
                                   f"{scenario['edition']}"))
    keys = {inv.key: inv for inv in ruleset.invariants_for(scenario["edition"])}
    inv = keys.get(document["rule_key"])
    if inv is None:
        found.append(("$.rule_key", f"{ruleset.name} {scenario['edition']} has no rule key {document['rule_key']!r} "
                                    f"(see `trigger-conformance rules --ruleset {ruleset.name}`)"))
    elif document["rule_number"] != inv.rule_number(scenario["edition"]):
        found.append(("$.rule_number", f"{inv.key} is rule {inv.rule_number(scenario['edition'])} in "
                                       f"{ruleset.name} {scenario['edition']}, not {document['rule_number']!r}"))
    for n, byte in enumerate(document.get("choice_log", ())):
        if not 0 <= byte <= 255:
            found.append((f"$.choice_log[{n}]", f"{byte} is not a byte (0 to 255)"))
            break
    for field in ("actual_trace", "expected_trace"):
        found += _trace_problems(scenario, document.get(field), f"$.{field}")
    if found:
        raise DocumentError(where, found[:8])
    return ruleset, scenario, inv


def check_fixture_document(document: dict[str, Any], where: str):
    """What ``trigger-conformance run`` requires of a fixture, beyond its schema: a valid, consistent scenario,
    rule keys of its ruleset and edition, and an expected trace that does not contradict the scenario.

    Returns the :class:`conformance.documents.fixture_files.Fixture`. Raises DocumentError or ScenarioError naming ``where``.
    """
    from conformance.documents.fixture_files import load_fixture
    from reference_engine.kernel.registry import get_ruleset

    fixture = load_fixture(document, where)
    scenario = fixture.scenario
    known = {inv.key for inv in get_ruleset(scenario["ruleset"]).invariants_for(scenario["edition"])}
    found = [(f"$.rule_keys[{n}]", f"{scenario['ruleset']} {scenario['edition']} has no rule key {key!r}")
             for n, key in enumerate(fixture.rule_keys) if key not in known]
    found += _trace_problems(scenario, fixture.expected_trace, "$.expected_trace")
    if found:
        raise DocumentError(where, found[:8])
    return fixture
