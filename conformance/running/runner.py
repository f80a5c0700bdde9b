"""Checking an engine: one stream of scenarios judged by every rule, then a verdict per rule.

A run explores one stream: scenario n is a function of the run seed and n alone (:func:`conformance.generation.stream.stream_source`). Each
scenario is played once on the engine through its adapter and its trace judged by every invariant of the edition
(:func:`explore`); workers share out ranges of the stream and their explorations merge (:func:`merge`) into the same
verdicts whatever their number. Then each rule is concluded on its own (:func:`conformance.running.concluding.conclude`): failures the example
database already holds for it are replayed first (found earlier, on this machine or another sharing the database);
the first failure is shrunk against that rule (Hypothesis on the answer log, :mod:`conformance.shrinking.shrinker`, then on
the scenario itself, :mod:`conformance.shrinking.reduction`), judged again with every rule of the ruleset, replayed to check
that the engine answers the same way each time, and set beside the reference engine's trace
(:mod:`conformance.running.concluding`).
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from hypothesis.database import ExampleDatabase

from reference_engine.kernel.engine import Engine
from conformance.running.checking import EngineOutcome, ScenarioCheck, check_scenario, play
from conformance.generation.engine_profile import check_profile, profile_problem
from reference_engine.kernel.errors import signal_name
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import SeededSource
from conformance.generation.stream import stream_source
from reference_engine.kernel.invariant import Invariant
from reference_engine.kernel.ruleset import Ruleset

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
    # Options each scenario draws (name, values with the default first), so that every reading of the rules is
    # explored; the others keep their value in ``options``. See :func:`conformance.generation.stream.explorable_options`.
    explored_options: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    # The answers the engine under test and the reference engine already gave while shrinking, shared by every rule
    # a run concludes (see PlayMemo); None: every candidate is played.
    plays: "PlayMemos | None" = field(default=None, compare=False, repr=False)


class PlayMemo:
    """The answers an engine already gave, by scenario, so that shrinking does not play a candidate twice.

    A scenario that fails several rules is shrunk once per rule (each rule's counterexample is shrunk against that
    rule), and those shrinks, starting from the same scenario, try many of the same candidates; so do the answer-log
    and the scenario-level passes of one shrink. Only answers are kept (a trace, garbage, or a skip with its reason),
    never a crash, a time-out or an engine that raised, which are played again. Whether the engine answers the same
    scenario the same way every time is still checked on every counterexample by playing it afresh
    (:func:`explain_failure`), never from here. At most ``limit`` answers are kept, the least recently used dropped
    first. ``hits`` and ``misses`` count lookups.
    """

    ANSWERS = ("trace", "garbage", "skipped")

    def __init__(self, limit: int = 1024):
        self.limit = limit
        self._answers: OrderedDict[str, EngineOutcome] = OrderedDict()
        self.hits = self.misses = 0

    def play(self, engine: Engine, scenario: dict[str, Any]) -> EngineOutcome:
        """``engine``'s answer to the prepared ``scenario``: the one it gave before, else a new play."""
        key = canonical(scenario)
        known = self._answers.get(key)
        if known is not None:
            self.hits += 1
            self._answers.move_to_end(key)
            return known
        self.misses += 1
        outcome = play(engine, scenario)
        if outcome.status in self.ANSWERS:
            self._answers[key] = outcome
            if len(self._answers) > self.limit:
                self._answers.popitem(last=False)
        return outcome


@dataclass
class PlayMemos:
    """One :class:`PlayMemo` for the engine under test (whatever instance of it plays: a session starts a fresh one
    for each rule) and one for the reference engine."""

    engine: PlayMemo = field(default_factory=PlayMemo)
    reference: PlayMemo = field(default_factory=PlayMemo)


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
    shrink_seconds: float = 0.0  # wall seconds spent shrinking it (the scenario-level passes and Hypothesis)
    explain_seconds: float = 0.0  # wall seconds spent explaining it (replays, the reference engine's trace)


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
    engine_traceback: str = ""  # an engine that raised: its first exception, cut to its own frames (checking.py)
    # Scenarios the engine did not answer (it crashed, timed out, raised...) that the rule did not need (see
    # conformance.running.concluding.lost_needed): the verdict stands on the others. 0 when none was lost, or when the
    # rule is errored for them.
    scenarios_lost: int = 0
    failure: Failure | None = None
    check_error: str = ""
    seconds: float = 0.0
    exercised_under: dict[str, dict[str, int]] = field(default_factory=dict)  # see Exploration
    skip_reasons: dict[str, int] = field(default_factory=dict)  # see Exploration


def scenario_builder(config: RunConfig, engine: Engine):
    """The builder of this run's scenarios: the ruleset's builder for what ``engine`` supports (its generation
    profile), preceded by the draw of every explored option (0, the simplest answer, is its default, so shrinking
    goes back to the defaults). The document carries its ``options``. Raises what the engine's generation_profile
    raises, or conformance.generation.engine_profile.ProfileError for a profile the builder cannot use."""
    build = builder_for(config.ruleset.name, check_profile(config.ruleset.name,
                                                           engine.generation_profile(config.ruleset.name)))
    if not config.explored_options:
        return build

    def build_with_options(source, edition: str) -> dict[str, Any]:
        drawn = {name: values[source.integer(0, len(values) - 1)] for name, values in config.explored_options}
        return {**build(source, edition), "options": {**config.options, **drawn}}

    return build_with_options


def prepare_generated(config: RunConfig, document: dict[str, Any]) -> dict[str, Any]:
    """A generated scenario document with its options: those it drew, else the run's (generated documents are built
    valid)."""
    return {**document, "options": dict(document.get("options") or config.options)}


SCHEMA_SAMPLE = 25  # one generated scenario in this many (stream indexes 0, 25, ...) is validated during a run


def check_generated(config: RunConfig, scenario: dict[str, Any], n: int) -> None:
    """Validate generated scenario ``n`` of the run stream (options set) against the composed scenario schema: a
    generator is trusted to build valid documents, so a run checks a sample of them (:data:`SCHEMA_SAMPLE`) and
    ``selftest`` checks the first ones of every edition (conformance/generation/generator_check.py). Raises ConformanceError
    naming the generator as at fault."""
    from conformance.documents.json_io import problems
    from reference_engine.kernel.errors import ConformanceError

    found = problems(scenario, "scenario", limit=1)
    if found:
        where, message = found[0]
        raise ConformanceError(f"the generator of ruleset {config.ruleset.name} built scenario {n} of the run stream "
                               f"(seed {config.seed}) not valid under the composed scenario schema at {where}: "
                               f"{message} (the generator's fault, not the engine's: fix the generator)")


def canonical(trace: dict[str, Any] | None) -> str:
    return json.dumps(trace, sort_keys=True)


STREAM = "scenarios"
MAX_SKIP_REASONS = 50
MAX_LOST = 200  # stream indexes of unanswered scenarios kept per rule (Exploration.lost); past it, a rule is errored
UNKNOWN_INDEX = -1  # in Exploration.lost: a scenario that is not one of the stream's (a replay of the database's)
STDERR_KEPT = 64 * 1024  # characters of a process engine's stderr kept with a verdict (docs/harness.md)
OTHER_SKIP_REASONS = "(other reasons)"


def _count_reason(reasons: dict[str, int], reason: str, n: int) -> None:
    """Add ``n`` scenarios skipped for ``reason`` (bounded: see :attr:`Exploration.skip_reasons`)."""
    reason = reason[:500]
    if reason not in reasons and len(reasons) >= MAX_SKIP_REASONS:
        reason = OTHER_SKIP_REASONS
    reasons[reason] = reasons.get(reason, 0) + n


@dataclass
class Exploration:
    """What a range of the scenario stream showed about one rule key.

    Counts cover the scenarios explored, but for a rule that failed only those up to and including its first
    failure (``failure_index``, the failing scenario's place in the stream, with its answer log), so that the
    counts, like the failure, do not depend on how many workers shared the stream. ``prefix`` holds the counts as
    they stood at the first failure while the range goes on being explored for the other rules.
    """

    key: str
    start: int = 0
    scenarios_run: int = 0
    scenarios_exercised: int = 0
    engine_problems: dict[str, int] = field(default_factory=dict)
    first_problem: str = ""
    engine_stderr: str = ""
    engine_traceback: str = ""
    check_error: str = ""
    failure_index: int | None = None
    failure_log: list[int] | None = None
    failure_messages: list[str] | None = None  # what the rule said of its first failure, as explored (unshrunk)
    failure_scenario: dict[str, Any] | None = None  # that failure's scenario as played (for an interrupted run)
    failure_trace: dict[str, Any] | None = None  # the engine's trace that violated the rule there (unshrunk)
    # Explored option -> JSON of a value -> scenarios that exercised the rule with it.
    exercised_under: dict[str, dict[str, int]] = field(default_factory=dict)
    # The reasons the engine gave for the scenarios it skipped, each with how many (at most MAX_SKIP_REASONS
    # distinct reasons; the rest are counted under OTHER_SKIP_REASONS).
    skip_reasons: dict[str, int] = field(default_factory=dict)
    # The stream indexes of the scenarios the engine did not answer (neither a trace nor a skip), in order, at most
    # MAX_LOST of them (UNKNOWN_INDEX for one that is not the stream's): whether the rule needed them is decided
    # when it is concluded.
    lost: list[int] = field(default_factory=list)
    # The scenarios the engine answered with a trace holding no event entry at all: when that is every trace it
    # gave, its traces show nothing of the scenarios (is it playing them?), and more examples will not help.
    eventless: int = 0

    def note(self, check: ScenarioCheck, options: dict[str, Any] | None = None, index: int = UNKNOWN_INDEX) -> None:
        """Count one judged scenario (before any failure of this rule was found); ``options``: the values of the
        explored options it was played with; ``index``: its place in the stream."""
        self.scenarios_run += 1
        if check.outcome.status == "trace" and not has_event(check.outcome.trace):
            self.eventless += 1
        if check.outcome.status != "trace":
            status = check.outcome.status
            self.engine_problems[status] = self.engine_problems.get(status, 0) + 1
            if status != "skipped" and len(self.lost) < MAX_LOST:
                self.lost.append(index)
            if not self.first_problem:
                self.first_problem = check.outcome.message
            if check.outcome.stderr and not self.engine_stderr:  # what the engine wrote with its first problem
                self.engine_stderr = check.outcome.stderr[-STDERR_KEPT:]
            if status == "errored" and check.outcome.context and not self.engine_traceback:
                self.engine_traceback = check.outcome.context[:STDERR_KEPT]  # where the engine raised
            if status == "skipped":
                _count_reason(self.skip_reasons, check.outcome.message or "no reason given", 1)
        elif self.key in check.check_errors:
            self.check_error = self.check_error or check.check_errors[self.key]
        elif check.exercised.get(self.key, 0) > 0 or self.key in check.violations:  # a violation: the rule applied
            self.scenarios_exercised += 1
            for name, value in (options or {}).items():
                counts = self.exercised_under.setdefault(name, {})
                counts[json.dumps(value)] = counts.get(json.dumps(value), 0) + 1

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Exploration":
        return cls(**data)


def has_event(trace: dict[str, Any] | None) -> bool:
    """Whether ``trace`` holds at least one ``event`` entry (an engine playing a scenario's script has some)."""
    entries = trace.get("entries") if isinstance(trace, dict) else None
    return any(isinstance(e, dict) and e.get("kind") == "event" for e in entries or ())


def silent_engine(exploration: dict[str, Any] | None) -> bool:
    """Whether the engine answered scenarios of the explored stream (``exploration``, from
    :func:`conformance.running.session.explore_stream`) with traces, and none of them held an event entry. Every
    rule sees the same stream: the rule that played the most scenarios tells."""
    shares = list(((exploration or {}).get("rules") or {}).values())
    widest = max(shares, key=lambda share: share.scenarios_run, default=None)
    if widest is None:
        return False
    traces = widest.scenarios_run - sum(widest.engine_problems.values())
    return traces > 0 and widest.eventless == traces


def explore(engine: Engine, config: RunConfig, invariants: list[Invariant], indexes: range | None = None,
            stop_when_all_failed: bool = True, observe: Callable[[int, SeededSource, dict[str, Any], ScenarioCheck],
                                                                   None] | None = None,
            deadline: float | None = None, played: list | None = None,
            progress: Callable[[int], None] | None = None) -> dict[str, Exploration]:
    """Play scenarios ``indexes`` of the run's stream (default: the first ``config.max_examples``) on ``engine``
    once each, and judge every trace with every invariant in ``invariants``.

    Scenario n of a run is a function of the run seed and n alone, so every rule sees the same scenarios whatever
    rules are checked and however the stream is shared out among workers; a failure is only remembered (its stream
    index and answer log), shrinking comes later (:func:`conclude`). ``observe(n, source, scenario, check)``, if
    given, sees every judged scenario (the divergence audit uses it) and keeps the whole range explored. Never
    raises for engine faults. ``deadline`` (a ``time.time()``, the run's time budget): no scenario is started after
    it. ``played``, if given, gets appended how many scenarios were played and judged, whether the deadline stopped
    them, and the signal whose KeyboardInterrupt did, if one did ("" if not): with ``played``, an interrupt ends
    exploration and returns what was judged before it (the scenario in play is dropped); without, it is raised.
    ``progress(count)``, if given, is called after each scenario with how many were played so far.
    """
    indexes = range(config.max_examples) if indexes is None else indexes
    try:
        build = scenario_builder(config, engine)
    except Exception as exc:  # an engine's generation_profile that raises: every scenario is unplayable
        message = profile_problem(exc)
        return {inv.key: Exploration(inv.key, start=indexes.start, scenarios_run=len(indexes),
                                     engine_problems={"errored": len(indexes)}, first_problem=message)
                for inv in invariants}
    found = {inv.key: Exploration(inv.key, start=indexes.start, exercised_under={
        name: {json.dumps(value): 0 for value in values} for name, values in config.explored_options})
        for inv in invariants}
    open_keys = set(found)
    count, out_of_time, interrupted = 0, False, ""
    try:
        count, out_of_time = _explore_loop(engine, config, invariants, indexes, build, found, open_keys,
                                           stop_when_all_failed, observe, deadline, progress)
    except _Interrupted as stop:  # a signal (KeyboardInterrupt): what was judged so far is kept
        if played is None:
            raise KeyboardInterrupt(*stop.args) from None
        count, interrupted = stop.judged, signal_name(stop)
    if played is not None:
        played += [count, out_of_time, interrupted]
    return found


class _Interrupted(Exception):
    def __init__(self, judged: int, *args):
        super().__init__(*args)
        self.judged = judged


def _explore_loop(engine, config, invariants, indexes, build, found, open_keys, stop_when_all_failed, observe,
                  deadline, progress):
    count, out_of_time = 0, False
    for n in indexes:
        if deadline is not None and time.time() >= deadline:
            out_of_time = True
            break
        count += 1
        try:
            source = stream_source(config.seed, n)
            document = build(source, config.edition)
            scenario = prepare_generated(config, document)
            if n % SCHEMA_SAMPLE == 0:
                check_generated(config, scenario, n)
            check = check_scenario(engine, scenario, invariants)
            if observe is not None:
                observe(n, source, scenario, check)
        except KeyboardInterrupt as exc:  # the scenario in play is dropped; those judged before it are kept
            raise _Interrupted(count - 1, *exc.args) from None
        drawn = {name: scenario["options"][name] for name, _ in config.explored_options}
        pending = list(open_keys)
        try:
            _note(found, open_keys, pending, check, drawn, n, source, scenario)
        except KeyboardInterrupt as exc:  # counted for some rules already: count it for the others too
            _note(found, open_keys, pending, check, drawn, n, source, scenario)
            raise _Interrupted(count, *exc.args) from None
        try:
            if progress is not None:
                progress(count)
        except KeyboardInterrupt as exc:
            raise _Interrupted(count, *exc.args) from None
        if stop_when_all_failed and not open_keys and observe is None:
            break
    return count, out_of_time


def _note(found, open_keys, pending, check, drawn, n, source, scenario) -> None:
    """Count scenario ``n`` for each rule key in ``pending`` (emptied as it goes), remembering its first failure."""
    while pending:
        share = found[pending.pop()]
        share.note(check, drawn, n)
        if share.key in check.violations:
            share.failure_index, share.failure_log = n, list(source.log)
            share.failure_messages = list(check.violations[share.key])
            share.failure_scenario = scenario
            share.failure_trace = check.outcome.trace
            open_keys.discard(share.key)


def merge(parts: list[dict[str, Exploration]]) -> dict[str, Exploration]:
    """One exploration from explorations of consecutive ranges of the same stream (in any order): counts added up
    to the first failure, which is the failure of the earliest range that has one."""
    merged: dict[str, Exploration] = {}
    for part in sorted(parts, key=lambda p: min((e.start for e in p.values()), default=0)):
        for key, share in part.items():
            total = merged.setdefault(key, Exploration(key, start=share.start))
            if total.failure_index is not None:
                continue
            total.scenarios_run += share.scenarios_run
            total.scenarios_exercised += share.scenarios_exercised
            total.eventless += share.eventless
            for status, n in share.engine_problems.items():
                total.engine_problems[status] = total.engine_problems.get(status, 0) + n
            for name, counts in share.exercised_under.items():
                into = total.exercised_under.setdefault(name, {})
                for value, n in counts.items():
                    into[value] = into.get(value, 0) + n
            for reason, n in share.skip_reasons.items():
                _count_reason(total.skip_reasons, reason, n)
            total.lost = (total.lost + share.lost)[:MAX_LOST]
            total.first_problem = total.first_problem or share.first_problem
            total.engine_stderr = total.engine_stderr or share.engine_stderr
            total.engine_traceback = total.engine_traceback or share.engine_traceback
            total.check_error = total.check_error or share.check_error
            total.failure_index, total.failure_log = share.failure_index, share.failure_log
            total.failure_messages, total.failure_scenario = share.failure_messages, share.failure_scenario
            total.failure_trace = share.failure_trace
    return merged


__all__ = ["RunConfig", "PlayMemo", "PlayMemos", "RuleResult", "Failure", "Exploration", "explore", "merge",
           "EngineOutcome", "has_event", "silent_engine"]
