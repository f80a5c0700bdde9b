"""Checking one rule of one engine: explore, shrink what fails with Hypothesis, and say what was found.

For every rule key the runner first replays the failures that the example database already holds for it (found
earlier, on this machine or another sharing the database), then explores ``max_examples`` generated scenarios
(seeded from the run seed and the rule key, so the verdict of a rule does not depend on which other rules run, on
how many workers share the work, or on the environment),
plays each on the engine through its adapter, and judges the trace with that rule's invariant. The first failure
is shrunk with Hypothesis (:mod:`conformance.shrinking`), judged again with every rule of the ruleset, replayed to
check that the engine answers the same way twice, and compared with the reference engine's trace.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

from hypothesis.database import ExampleDatabase

from conformance.adapters.base import Engine
from conformance.checking import (
    EngineOutcome, ScenarioCheck, check_scenario, check_trace, play, replay_for_determinism,
)
from conformance.generation.registry import builder_for
from conformance.generation.source import SeededSource
from conformance.shrinking import Built, database_key, known_failures, rebuild, shrink
from reference_engine.core.invariant import Invariant
from reference_engine.core.ruleset import Ruleset

DETERMINISM_REPLAYS = 2


@dataclass(frozen=True)
class RunConfig:
    """What a run checks: ``options`` are the resolved ruleset options every generated scenario carries."""

    ruleset: Ruleset
    edition: str
    options: dict[str, Any]
    max_examples: int = 100
    seed: int = 0
    database: ExampleDatabase | None = None
    engine_name: str = "reference"
    shrink_seconds: float = 30.0


@dataclass
class Failure:
    """A shrunk counterexample for one rule."""

    messages: list[str]
    scenario: dict[str, Any]
    log: list[int]
    original_size: int
    shrunk_size: int
    actual_trace: dict[str, Any] | None
    expected_trace: dict[str, Any] | None
    also_violates: list[str] = field(default_factory=list)
    determinism: str = "deterministic"  # or "nondeterministic" (the engine answered the same scenario differently)


@dataclass
class RuleResult:
    """The verdict for one rule key: ``status`` is passed, failed, errored (the engine misbehaved on some scenarios
    and no violation was found in the others) or unexercised (passed without the rule ever applying)."""

    key: str
    rule_number: str
    summary: str
    status: str
    scenarios_run: int = 0
    scenarios_exercised: int = 0
    engine_problems: dict[str, int] = field(default_factory=dict)
    first_problem: str = ""
    engine_stderr: str = ""  # the tail of what a process engine wrote on stderr with its first problem
    failure: Failure | None = None
    check_error: str = ""
    seconds: float = 0.0


def rule_seed(run_seed: int, key: str) -> int:
    """The exploration seed of one rule: a stable function of the run seed and the rule key."""
    return int.from_bytes(hashlib.sha256(f"{run_seed}:{key}".encode()).digest()[:8], "big")


def exploration_sources(run_seed: int, key: str, count: int | None = None) -> Iterator[SeededSource]:
    """The seeded sources of one exploration stream (``count`` of them, or endless): scenario n of stream ``key``
    comes from a seed derived from the run seed, the key and n. Hypothesis's own integer generation is not used for
    these seeds: it mixes in constants collected from whatever modules are loaded, which would make a verdict
    depend on the environment it runs in."""
    base = rule_seed(run_seed, key)
    for n in itertools.count() if count is None else range(count):
        yield SeededSource((base + n) % 2**64)


def prepare_generated(config: RunConfig, document: dict[str, Any]) -> dict[str, Any]:
    """A generated scenario document with the run's options attached (generated documents are built valid)."""
    return {**document, "options": dict(config.options)}


def scenario_size(document: dict[str, Any]) -> int:
    """A scenario's size in the units a reader counts: objects, abilities and scripted actions."""
    objects = document["objects"]
    return (len(objects) + sum(len(o.get("abilities", ())) for o in objects)
            + sum(len(a["effect"]) for step in document["script"] for a in step["actions"]))


def canonical(trace: dict[str, Any] | None) -> str:
    return json.dumps(trace, sort_keys=True)


def check_rule(engine: Engine, reference: Engine, config: RunConfig, inv: Invariant) -> RuleResult:
    """Explore, and on failure shrink, one rule of ``config.ruleset`` against ``engine``."""
    started = time.monotonic()
    build = builder_for(config.ruleset.name, engine.generation_profile(config.ruleset.name))
    result = RuleResult(inv.key, inv.rule_number(config.edition), inv.summary, "passed")
    key = database_key(config.engine_name, config.ruleset.name, config.edition,
                       json.dumps(config.options, sort_keys=True), inv.key)

    def judge(document: dict[str, Any]) -> ScenarioCheck:
        return check_scenario(engine, prepare_generated(config, document), [inv])

    def note(check: ScenarioCheck) -> None:
        result.scenarios_run += 1
        if check.outcome.status != "trace":
            result.engine_problems[check.outcome.status] = result.engine_problems.get(check.outcome.status, 0) + 1
            if not result.first_problem:
                result.first_problem = check.outcome.message
                result.engine_stderr = check.outcome.stderr[-4000:]
        elif check.check_errors:
            result.check_error = result.check_error or check.check_errors[inv.key]
        elif check.exercised.get(inv.key, 0) > 0:
            result.scenarios_exercised += 1

    found: list[Built] = []
    for log in known_failures(config.database, key):  # failures found earlier, here or on another machine
        built = rebuild(build, config.edition, log)
        check = judge(built.document)
        note(check)
        if check.failed:
            found.append(built)
            break

    if not found:
        for source in exploration_sources(config.seed, inv.key):
            if result.scenarios_run >= config.max_examples:
                break
            document = build(source, config.edition)
            check = judge(document)
            note(check)
            if check.failed:
                found.append(Built(document, source.log))
                break

    misbehaviours = {k for k in result.engine_problems if k != "skipped"}
    if found:
        result.status = "failed"
        result.failure = _minimise(engine, reference, config, inv, found[0], key)
        if result.failure.determinism == "nondeterministic":
            # Not a verdict on the rule: the engine does not answer the same scenario the same way twice.
            result.status = "errored"
            result.engine_problems["nondeterministic"] = result.engine_problems.get("nondeterministic", 0) + 1
            result.first_problem = ("the engine answered the failing scenario differently when it was replayed "
                                    "with the same choices")
    elif result.check_error or misbehaviours:
        result.status = "errored"
    elif result.scenarios_exercised == 0:
        declined = result.engine_problems.get("skipped", 0) == result.scenarios_run
        result.status = "skipped" if declined else "unexercised"
    result.seconds = round(time.monotonic() - started, 3)
    return result


def _fails(engine: Engine, config: RunConfig, inv: Invariant):
    def fails(document: dict[str, Any]) -> bool:
        return check_scenario(engine, prepare_generated(config, document), [inv]).failed

    return fails


def _minimise(engine: Engine, reference: Engine, config: RunConfig, inv: Invariant, built: Built,
              key: bytes) -> Failure:
    build = builder_for(config.ruleset.name, engine.generation_profile(config.ruleset.name))
    shrunk = shrink(build, config.edition, built.log, _fails(engine, config, inv), key, config.database,
                    config.shrink_seconds)
    scenario = prepare_generated(config, shrunk.document)
    return explain_failure(engine, reference, config.ruleset, scenario, inv, list(shrunk.log),
                           original_size=scenario_size(built.document))


def explain_failure(engine: Engine, reference: Engine, ruleset: Ruleset, scenario: dict[str, Any], inv: Invariant,
                    log: list[int], original_size: int | None = None) -> Failure:
    """Everything a reader needs about one failing scenario: the violation, both traces, the other rules it breaks,
    and whether the engine answers it the same way every time."""
    outcome = play(engine, scenario)
    invariants = ruleset.invariants_for(scenario["edition"])
    checked = check_trace(scenario, outcome.trace, invariants, outcome) if outcome.status == "trace" else None
    messages = (checked.violations.get(inv.key) if checked else None) or [outcome.message or "no violation on replay"]
    also = sorted(k for k in (checked.violations if checked else {}) if k != inv.key)
    # Same scenario, same choices: a different answer is nondeterminism (a replay that crashes or times out is no
    # answer, and does not hide the failure found).
    replayed = replay_for_determinism(engine, scenario, DETERMINISM_REPLAYS, first=outcome)
    determinism = "deterministic" if replayed is None else "nondeterministic"
    expected = play(reference, scenario)
    size = scenario_size(scenario)
    return Failure(
        messages=messages, scenario=scenario, log=log, original_size=original_size or size, shrunk_size=size,
        actual_trace=outcome.trace, expected_trace=expected.trace if expected.status == "trace" else None,
        also_violates=also, determinism=determinism,
    )


__all__ = ["RunConfig", "RuleResult", "Failure", "check_rule", "explain_failure", "EngineOutcome", "rule_seed"]
