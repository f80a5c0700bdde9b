"""One scenario through the pipeline: engine (via its adapter) -> trace -> invariants -> per-rule outcome.

Nothing here raises for a misbehaving engine or a buggy check: an engine that raises or returns garbage becomes an
``errored`` or ``garbage`` outcome, and a check that raises becomes a ``check-error`` for that rule alone, so the
run goes on and nothing already found is lost.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any, Iterable

from conformance.adapters.base import Engine, Skipped
from conformance.choices import ScenarioChooser
from conformance.documents import problems as schema_problems
from reference_engine.invariant import Invariant
from reference_engine.traceview import TraceView


@dataclass
class EngineOutcome:
    """What an engine did with one scenario: ``status`` is ``trace``, ``skipped``, ``errored`` or ``garbage``."""

    status: str
    trace: dict[str, Any] | None = None
    message: str = ""
    context: str = ""


@dataclass
class ScenarioCheck:
    """The verdict of every invariant on one scenario."""

    outcome: EngineOutcome
    violations: dict[str, list[str]] = field(default_factory=dict)  # rule key -> messages (failed rules only)
    exercised: dict[str, int] = field(default_factory=dict)  # rule key -> occasions the trace gave the rule
    check_errors: dict[str, str] = field(default_factory=dict)  # rule key -> traceback of a check that raised

    @property
    def failed(self) -> bool:
        return bool(self.violations)


def play(engine: Engine, scenario: dict[str, Any]) -> EngineOutcome:
    """Run ``engine`` on a prepared scenario and classify the answer. Never raises for engine faults."""
    try:
        trace = engine.run(scenario, ScenarioChooser(scenario))
    except Skipped as exc:
        return EngineOutcome("skipped", message=exc.reason, context=exc.issue_url or "")
    except Exception as exc:  # an engine's own bug is an outcome, not a crash of the run
        return EngineOutcome("errored", message=f"{type(exc).__name__}: {exc}", context=traceback.format_exc())
    found = schema_problems(trace, "trace")
    if found:
        return EngineOutcome("garbage", trace=trace if isinstance(trace, dict) else None,
                             message="the engine's answer is not a valid trace: "
                             + "; ".join(f"at {path}: {msg}" for path, msg in found))
    return EngineOutcome("trace", trace=trace)


def structure_problems(scenario: dict[str, Any], trace: dict[str, Any]) -> list[str]:
    """Referential problems of a schema-valid trace (dangling ids, positions out of order)."""
    return TraceView(scenario, trace, scenario["options"]).structure_problems()


def check_trace(scenario: dict[str, Any], trace: dict[str, Any], invariants: Iterable[Invariant],
                outcome: EngineOutcome | None = None) -> ScenarioCheck:
    """Run ``invariants`` over a schema-valid trace of a prepared scenario."""
    outcome = outcome or EngineOutcome("trace", trace=trace)
    view = TraceView(scenario, trace, scenario["options"])
    structure = view.structure_problems()
    if structure:
        return ScenarioCheck(EngineOutcome("garbage", trace=trace, message="the trace contradicts itself: "
                                           + "; ".join(structure[:5])))
    result = ScenarioCheck(outcome)
    for inv in invariants:
        try:
            messages = inv.check(view)
            result.exercised[inv.key] = inv.exercised(view)
        except Exception:
            result.check_errors[inv.key] = traceback.format_exc()
            continue
        if messages:
            number = inv.rule_numbers.get(scenario["edition"], "?")
            result.violations[inv.key] = [f"[{number}] {m}" for m in messages]
    return result


def check_scenario(engine: Engine, scenario: dict[str, Any], invariants: Iterable[Invariant]) -> ScenarioCheck:
    """Play a prepared scenario on ``engine`` and judge the trace with ``invariants``."""
    outcome = play(engine, scenario)
    if outcome.status != "trace":
        return ScenarioCheck(outcome)
    return check_trace(scenario, outcome.trace, invariants, outcome)
