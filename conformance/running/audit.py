"""The divergence audit: a measure of the judge's completeness, not a verdict on any rule.

Under the same scenario and the same choices, a conforming engine and the reference engine must reach the same
observable outcome. When the engine under test reaches another one and no invariant of the edition objects, either
the judge misses something the rules require, or the reference engine is wrong: that is an
``unexplained-divergence``. It is reported as a verdict of its own, with a shrunk scenario and both outcomes, and
never counted as the engine's failure of a rule (a divergence that some invariant flags is already reported by
that invariant).

The observable outcome (:func:`observable_outcome`) is what a player at the table could see happen, with the
engine's own ids taken out: every event in order (type, subject, player, zones, amounts), every resolution and
every trigger removed without resolving (with its reason), named by ability, source, controller and the event that
triggered it, the triggers left waiting at the end, and the steps advanced. Final zones, life totals and flags
follow from the events.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from reference_engine.kernel.engine import Engine
from conformance.running.checking import check_trace, first_difference, play
from conformance.generation.engine_profile import profile_guard
from conformance.shrinking.reduction import reduce_scenario, scenario_size, well_formed
from conformance.running.runner import RunConfig, explore, prepare_generated, scenario_builder
from conformance.generation.stream import explorable_options
from conformance.shrinking.shrinker import database_key, rebuild, shrink
from reference_engine.kernel.ruleset import Ruleset

STATUS = "unexplained-divergence"

# Event fields a player observes; ids, positions and causes are the engine's own bookkeeping.
_EVENT_FIELDS = ("type", "subject", "name", "player", "from", "to", "ability", "controller", "amount", "target",
                 "prevented")


def _event_signature(event: dict[str, Any]) -> tuple:
    return tuple((name, event[name]) for name in _EVENT_FIELDS if name in event)


def observable_outcome(scenario: dict[str, Any], trace: dict[str, Any]) -> dict[str, Any]:
    """What a schema-valid ``trace`` of ``scenario`` shows a player, free of engine ids (a JSON-ready dict).

    Keys: ``events`` (each event's observable fields, in trace order), ``resolved`` and ``removed`` (in order; each
    trigger named ``[ability, source, controller, event]`` where ``event`` is the triggering event's signature and
    its occurrence number among equal signatures, or null for a restored trigger), ``waiting`` (triggers neither
    resolved nor removed, sorted), ``steps`` (step advances) and ``delayed`` (MTG's delayed and reflexive triggered
    abilities in creation order: ability, source, controller, reflexive, and why each ended or null). Source: the trace format,
    schemas/trace.schema.json; the same for every ruleset.
    """
    seen: Counter = Counter()
    event_names: dict[str, list] = {}
    events: list[list] = []
    triggers: dict[str, list] = {}
    resolved: list[list] = []
    removed: list[list] = []
    settled: set[str] = set()
    created: dict[str, list] = {}
    steps = 0
    for entry in trace["entries"]:
        kind = entry["kind"]
        if kind == "event":
            signature = _event_signature(entry)
            seen[signature] += 1
            named = [list(pair) for pair in signature]
            event_names[entry["id"]] = [named, seen[signature]]
            events.append(named)
        elif kind == "trigger":
            delayed = entry.get("delayed")
            triggers[entry["id"]] = [entry["ability"], entry["source"], entry["controller"],
                                     event_names.get(entry["event"]) if entry["event"] is not None else None,
                                     bool(delayed)]
        elif kind == "resolve_begin" and entry["trigger"] not in settled:
            settled.add(entry["trigger"])
            resolved.append(triggers.get(entry["trigger"], [entry["trigger"]]))
        elif kind == "removed" and entry["trigger"] not in settled:
            settled.add(entry["trigger"])
            removed.append([triggers.get(entry["trigger"], [entry["trigger"]]), entry["reason"]])
        elif kind == "delayed_create":
            created[entry["id"]] = [entry["ability"], entry["source"], entry["controller"],
                                    bool(entry.get("reflexive")), None]
        elif kind == "delayed_end" and entry["delayed"] in created:
            created[entry["delayed"]][4] = entry["reason"]
        elif kind == "step_advance":
            steps += 1
    waiting = sorted((named for trigger, named in triggers.items() if trigger not in settled), key=json.dumps)
    return {"events": events, "resolved": resolved, "removed": removed, "waiting": waiting, "steps": steps,
            "delayed": list(created.values())}


def outcome_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """Where two observable outcomes (:func:`observable_outcome`) first differ, in words and then as a JSON path
    with both sides (``the 2nd trigger to resolve (A3 of F1, from a signal event): its triggering event, field 2:
    "name" vs "subject" (at $.resolved[1][3][0][1][0])``); None when they agree."""
    found = first_difference(expected, actual)
    if found is None:
        return None
    path, _, values = found.partition(": ")
    words = _path_in_words(path, expected)
    return f"{words}: {values} (at {path})" if words else found


_TRIGGER_PARTS = ("its ability", "its source", "its controller", "its triggering event", "whether it is delayed")
_DELAYED_PARTS = ("its ability", "its source", "its controller", "whether it is reflexive", "how it ended")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _event_type(named: Any) -> str:
    """The type of an event named by its observable fields (``[[name, value], ...]``), or ""."""
    fields = dict(pair for pair in named if isinstance(pair, list) and len(pair) == 2) if isinstance(named, list) \
        else {}
    return str(fields.get("type", ""))


def _event_words(named: Any) -> str:
    return f"a {_event_type(named)} event" if _event_type(named) else "an event"


def _trigger_words(trigger: Any) -> str:
    if not isinstance(trigger, list) or len(trigger) < 3:
        return ""
    event = trigger[3] if len(trigger) > 3 else None
    origin = f", from {_event_words(event[0])}" if isinstance(event, list) and event else ""
    return f" ({trigger[0]} of {trigger[1]}{origin})"


def _path_in_words(path: str, outcome: dict[str, Any]) -> str:
    """A JSON path into an observable outcome, in words (see :func:`outcome_difference`); "" when it is not one."""
    import re

    steps = [int(i) if i else key for key, i in re.findall(r"\.(\w+)|\[(\d+)\]", path)]
    if not steps or steps[0] not in outcome:
        return ""
    section, rest = steps[0], steps[1:]
    value = outcome[section]
    if section == "steps":
        return "the number of step advances"
    if not rest:
        return f"the number of {'events' if section == 'events' else 'triggers ' + section}"
    index, rest = rest[0], rest[1:]
    item = value[index] if isinstance(value, list) and index < len(value) else None
    if section == "events":
        words = [f"the {_ordinal(index + 1)} event" + (f" ({_event_type(item)})" if _event_type(item) else "")]
        return ", ".join(words + _field_words(item, rest))
    if section == "delayed":
        words = [f"the {_ordinal(index + 1)} delayed ability created"]
        if rest:
            words.append(_DELAYED_PARTS[rest[0]] if rest[0] < len(_DELAYED_PARTS) else f"part {rest[0] + 1}")
        return ", ".join(words)
    if section == "removed":
        if rest and rest[0] == 1:
            return f"the {_ordinal(index + 1)} trigger removed{_trigger_words((item or [None])[0])}: why it was removed"
        item, rest = (item[0] if isinstance(item, list) and item else None), rest[1:]
    verb = {"resolved": "to resolve", "removed": "removed", "waiting": "left waiting"}.get(section, section)
    words = [f"the {_ordinal(index + 1)} trigger {verb}{_trigger_words(item)}"]
    if rest:
        part = rest[0]
        words.append(_TRIGGER_PARTS[part] if part < len(_TRIGGER_PARTS) else f"part {part + 1}")
        if part == 3 and len(rest) > 1:
            event = item[3] if isinstance(item, list) and len(item) > 3 else None
            if rest[1] == 1:
                words.append("its occurrence among equal events")
            else:
                words += _field_words(event[0] if isinstance(event, list) and event else None, rest[2:])
    return ", ".join(words)


def _field_words(named: Any, rest: list) -> list[str]:
    """The words for a path into an event's fields (``[[name, value], ...]``): which field, or the value of which."""
    if not rest:
        return []
    pair = named[rest[0]] if isinstance(named, list) and rest[0] < len(named) else None
    if len(rest) > 1 and rest[1] == 1 and isinstance(pair, list) and pair:
        return [f"the value of its field {pair[0]}"]
    return [f"its {_ordinal(rest[0] + 1)} field"]


@dataclass
class Divergence:
    """One scenario on which the engine under test and the reference engine reach different observable outcomes
    that no invariant explains. ``where`` is the first JSON path at which the two outcomes differ."""

    scenario: dict[str, Any]
    log: list[int]
    where: str
    actual: dict[str, Any]
    expected: dict[str, Any]
    actual_trace: dict[str, Any]
    expected_trace: dict[str, Any]
    original_size: int = 0
    shrunk_size: int = 0


@dataclass
class AuditResult:
    """The audit's verdict on one engine: ``status`` is ``passed`` or :data:`STATUS`. ``explained`` counts
    divergences that some invariant flagged, ``divergences`` the unexplained ones; ``divergence`` is the first
    unexplained one, shrunk."""

    status: str = "passed"
    scenarios: int = 0
    compared: int = 0
    explained: int = 0
    divergences: int = 0
    divergence: Divergence | None = None
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """The report's ``audit`` entry (schemas/report.schema.json)."""
        found = self.divergence
        return {
            "status": self.status, "scenarios": self.scenarios, "compared": self.compared,
            "explained": self.explained, "divergences": self.divergences, "seconds": self.seconds,
            "divergence": None if found is None else {
                "scenario": found.scenario, "where": found.where, "actual": found.actual, "expected": found.expected,
                "actual_trace": found.actual_trace, "expected_trace": found.expected_trace,
                "original_size": found.original_size, "shrunk_size": found.shrunk_size},
        }


@dataclass
class AuditTally:
    """What the audit saw in a range of the run's stream: scenarios seen and compared, divergences some invariant
    explained, unexplained ones, and the first unexplained one (its stream index and answer log)."""

    start: int = 0
    scenarios: int = 0
    compared: int = 0
    explained: int = 0
    divergences: int = 0
    first_index: int | None = None
    first_log: list[int] | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "AuditTally":
        return cls(**data)


def merge_tallies(parts: list[AuditTally]) -> AuditTally:
    """One tally from tallies of ranges of the same stream: counts added, the earliest divergence kept."""
    total = AuditTally()
    for part in sorted(parts, key=lambda t: t.start):
        total.scenarios += part.scenarios
        total.compared += part.compared
        total.explained += part.explained
        total.divergences += part.divergences
        if total.first_index is None and part.first_index is not None:
            total.first_index, total.first_log = part.first_index, part.first_log
    return total


class StreamAudit:
    """The audit as an observer of :func:`conformance.running.runner.explore` (its ``observe``): each scenario the engine
    played is played on ``reference`` too and the outcomes compared; a divergence counts as explained when the
    scenario's check (over every invariant of the edition) found a violation."""

    def __init__(self, reference: Engine, start: int = 0):
        self.reference = reference
        self.tally = AuditTally(start=start)

    def __call__(self, n: int, source, scenario: dict[str, Any], check) -> None:
        self.tally.scenarios += 1
        if check.outcome.status != "trace":
            return
        expected = play(self.reference, scenario)
        if expected.status != "trace":
            return
        self.tally.compared += 1
        if observable_outcome(scenario, check.outcome.trace) == observable_outcome(scenario, expected.trace):
            return
        if check.violations:
            self.tally.explained += 1
            return
        self.tally.divergences += 1
        if self.tally.first_index is None:
            self.tally.first_index, self.tally.first_log = n, list(source.log)


def _unexplained(engine: Engine, reference: Engine, ruleset: Ruleset, scenario: dict[str, Any]) -> Divergence | None:
    """The unexplained divergence of one prepared scenario, or None (same outcome, explained, or not playable)."""
    actual = play(engine, scenario)
    if actual.status != "trace":
        return None
    expected = play(reference, scenario)
    if expected.status != "trace":
        return None
    mine = observable_outcome(scenario, actual.trace)
    theirs = observable_outcome(scenario, expected.trace)
    if mine == theirs:
        return None
    checked = check_trace(scenario, actual.trace, ruleset.invariants_for(scenario["edition"]), actual)
    if checked.violations or checked.outcome.status != "trace":
        return None
    where = outcome_difference(theirs, mine) or "the outcomes differ"
    return Divergence(scenario, [], where, mine, theirs, actual.trace, expected.trace)


def conclude_audit(engine: Engine, reference: Engine, config: RunConfig, tally: AuditTally) -> AuditResult:
    """The audit's verdict from its tally: the first unexplained divergence, if any, shrunk (Hypothesis on its answer
    log, then the scenario itself) while it stays unexplained, with both outcomes."""
    started = time.monotonic()
    result = AuditResult(scenarios=tally.scenarios, compared=tally.compared, explained=tally.explained,
                         divergences=tally.divergences)
    if tally.first_log is None:
        result.seconds = round(time.monotonic() - started, 3)
        return result
    result.status = STATUS
    build = scenario_builder(config, engine)
    found = rebuild(build, config.edition, tally.first_log)

    def diverges(document: dict[str, Any]) -> bool:
        return _unexplained(engine, reference, config.ruleset, prepare_generated(config, document)) is not None

    key = database_key(config.engine_name, config.ruleset.name, config.edition,
                       json.dumps(config.options, sort_keys=True), STATUS)
    shrunk = shrink(build, config.edition, found.log, diverges, key, config.database, config.shrink_seconds)
    start = shrunk.document if diverges(shrunk.document) and \
        scenario_size(shrunk.document) <= scenario_size(found.document) else found.document
    pinned = set(config.options) - {name for name, _ in config.explored_options}  # kept as the run fixed them
    valid = profile_guard(engine.generation_profile(config.ruleset.name), start, well_formed)
    reduced = reduce_scenario(start, diverges, valid, max(1.0, config.shrink_seconds / 2), pinned)
    divergence = _unexplained(engine, reference, config.ruleset, prepare_generated(config, reduced))
    if divergence is not None:
        divergence.log = list(shrunk.log) if reduced is shrunk.document else []
        divergence.original_size = scenario_size(found.document)
        divergence.shrunk_size = scenario_size(reduced)
        result.divergence = divergence
    result.seconds = round(time.monotonic() - started, 3)
    return result


def audit(engine: Engine, reference: Engine, config: RunConfig) -> AuditResult:
    """Explore the run's stream (``config.max_examples`` scenarios) judged by every invariant of the edition, compare
    each scenario's outcome on ``engine`` and ``reference``, and conclude. Never raises for engine faults (a
    scenario an engine cannot play is not compared)."""
    observer = StreamAudit(reference)
    explore(engine, config, list(config.ruleset.invariants_for(config.edition)), observe=observer)
    return conclude_audit(engine, reference, config, observer.tally)


def mutant_config(name: str, max_examples: int = 100, seed: int = 0, shrink_seconds: float = 30.0) -> RunConfig:
    """The run configuration under which bundled faulty engine ``name`` is checked: its own option values pinned
    (``Mutant.options``), every other option drawn by each scenario, as ``trigger-conformance run`` does."""
    from reference_engine.kernel.registry import MUTANTS
    from reference_engine.kernel.registry import get_ruleset

    mutant = MUTANTS[name]
    ruleset = get_ruleset(mutant.ruleset)
    pinned = dict(mutant.options)
    return RunConfig(ruleset, mutant.edition, ruleset.resolve_options(pinned), max_examples, seed, None,
                     f"mutant:{name}", shrink_seconds, explorable_options(ruleset, pinned))


def audit_mutant(name: str, seeds=range(1), max_examples: int = 100, shrink_seconds: float = 10.0) -> list[str]:
    """Audit bundled faulty engine ``name`` on each seed; returns one line per unexplained divergence found (empty:
    the judge explains every way this mutant differs from the reference engine on these scenarios).

    For developers growing the judge: ``python -c "from conformance.running.audit import audit_mutant;
    print(*audit_mutant('mw-lifo', range(5)), sep='\\n')"``."""
    from reference_engine.kernel.registry import reference_engine_for
    from reference_engine.kernel.registry import MUTANTS

    mutant = MUTANTS[name]
    lines = []
    for seed in seeds:
        config = mutant_config(name, max_examples, seed, shrink_seconds)
        engine, reference = mutant.factory(), reference_engine_for(mutant.ruleset)
        try:
            result = audit(engine, reference, config)
        finally:
            engine.close()
            reference.close()
        if result.divergence is not None:
            found = result.divergence
            lines.append(f"seed {seed}: {name} diverges unexplained at {found.where}\n"
                         f"  scenario: {json.dumps(found.scenario, sort_keys=True)}\n"
                         f"  expected outcome: {json.dumps(found.expected)}\n"
                         f"  actual outcome:   {json.dumps(found.actual)}")
    return lines


__all__ = ["STATUS", "AuditResult", "AuditTally", "Divergence", "StreamAudit", "audit", "audit_mutant",
           "conclude_audit", "merge_tallies", "mutant_config", "observable_outcome"]
