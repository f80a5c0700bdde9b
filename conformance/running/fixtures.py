"""Golden scenarios: judging an engine on a fixture (loading one is :mod:`conformance.documents.fixture_files`).

An engine passes a fixture when its trace obeys every invariant of the ruleset and has the expected trace's
observable outcome (:func:`observable_difference`): what the rules observe, not incidental fields (an engine's ids,
optional fields, are its own business).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference_engine.kernel.engine import Engine
from conformance.documents.fixture_files import Fixture
from conformance.running.checking import check_scenario, replay_for_determinism


@dataclass
class FixtureResult:
    id: str
    status: str  # passed, failed, errored, skipped
    rule_keys: list[str]
    messages: list[str]
    actual_trace: dict[str, Any] | None = None
    determinism: str = "deterministic"  # or "nondeterministic": replayed, the failing fixture got other answers


def observable_difference(scenario: dict[str, Any], expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """Where the observable outcomes (:func:`conformance.running.audit.observable_outcome`: every event with its observable
    fields in order, which triggers resolved and in what order, which were removed and why, which were left waiting,
    step advances, delayed triggers and how each ended; all named by ability, source, controller and triggering
    event, free of engine ids) of two traces of ``scenario`` first differ, in words (which entry, which field) and
    as a JSON path with both sides; None when they agree. Incidental fields (ids, the order of bookkeeping entries, optional fields no rule reads) do not
    count."""
    from conformance.running.audit import observable_outcome, outcome_difference

    return outcome_difference(observable_outcome(scenario, expected), observable_outcome(scenario, actual))


FIXTURE_REPLAYS = 2  # plays of a failing fixture that judge whether the engine answers it the same way


def check_fixture(engine: Engine, fixture: Fixture, invariants) -> FixtureResult:
    """Play a fixture on ``engine``: every invariant must hold, and the observable outcome must be the expected
    trace's (:func:`observable_difference`). A fixture that fails is played :data:`FIXTURE_REPLAYS` more times with
    the same choices: when the engine answers differently, it is no verdict on the rules but on the engine, as for a
    rule (errored, ``determinism`` nondeterministic, its first message saying so)."""
    result = check_scenario(engine, fixture.scenario, invariants)
    outcome = result.outcome
    if outcome.status == "skipped":
        return FixtureResult(fixture.id, "skipped", fixture.rule_keys, [outcome.message])
    if outcome.status != "trace":
        return FixtureResult(fixture.id, "errored", fixture.rule_keys, [f"{outcome.status}: {outcome.message}"],
                             outcome.trace)
    messages = [m for key, found in sorted(result.violations.items()) for m in (f"{key}: {x}" for x in found)]
    difference = observable_difference(fixture.scenario, fixture.expected_trace, outcome.trace)
    if difference:
        messages.append(f"the observable outcome differs from the expected one at {difference}")
    if not messages:
        return FixtureResult(fixture.id, "passed", fixture.rule_keys, messages, outcome.trace)
    replayed = replay_for_determinism(engine, fixture.scenario, FIXTURE_REPLAYS, first=outcome)
    if replayed is not None:
        return FixtureResult(fixture.id, "errored", fixture.rule_keys, [f"NONDETERMINISTIC: {replayed.message}",
                             *messages], outcome.trace, determinism="nondeterministic")
    return FixtureResult(fixture.id, "failed", fixture.rule_keys, messages, outcome.trace)
