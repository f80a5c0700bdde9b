"""Checking an engine: one stream of scenarios judged by every rule, then a verdict per rule.

A run explores one stream: scenario n is a function of the run seed and n alone (:func:`stream_source`). Each
scenario is played once on the engine through its adapter and its trace judged by every invariant of the edition
(:func:`explore`); workers share out ranges of the stream and their explorations merge (:func:`merge`) into the same
verdicts whatever their number. Then each rule is concluded on its own (:func:`conclude`): failures the example
database already holds for it are replayed first (found earlier, on this machine or another sharing the database);
the first failure is shrunk against that rule (Hypothesis on the answer log, :mod:`conformance.shrinking`, then on
the scenario itself, :mod:`conformance.reduction`), judged again with every rule of the ruleset, replayed to check
that the engine answers the same way each time, and set beside the reference engine's trace.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from hypothesis.database import ExampleDatabase

from reference_engine.kernel.engine import Engine
from conformance.checking import (
    EngineOutcome, ScenarioCheck, check_outcome, check_scenario, check_trace, play, replay_for_determinism,
)
from reference_engine.kernel.errors import signal_name
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import SeededSource
from conformance.reduction import reduce_scenario, scenario_size, well_formed
from conformance.shrinking import Built, database_key, known_failures, rebuild, shrink
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
    # explored; the others keep their value in ``options``. See :func:`explorable_options`.
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
    failure: Failure | None = None
    check_error: str = ""
    seconds: float = 0.0
    exercised_under: dict[str, dict[str, int]] = field(default_factory=dict)  # see Exploration
    skip_reasons: dict[str, int] = field(default_factory=dict)  # see Exploration


def rule_seed(run_seed: int, key: str) -> int:
    """The exploration seed of one rule: a stable function of the run seed and the rule key."""
    return int.from_bytes(hashlib.sha256(f"{run_seed}:{key}".encode()).digest()[:8], "big")


def stream_source(run_seed: int, n: int, key: str = "scenarios") -> SeededSource:
    """The seeded source of scenario ``n`` of stream ``key`` of a run: a function of the run seed, the key and n.
    Hypothesis's own integer generation is not used for these seeds: it mixes in constants collected from whatever
    modules are loaded, which would make a verdict depend on the environment it runs in."""
    return SeededSource((rule_seed(run_seed, key) + n) % 2**64)


def explorable_options(ruleset: Ruleset, pinned: dict[str, Any]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The options of ``ruleset`` not ``pinned`` by the user, each with its values, default first (what
    :attr:`RunConfig.explored_options` takes)."""
    return tuple((option.name, (option.default, *(v for v in option.values if v != option.default)))
                 for option in ruleset.options if option.name not in pinned)


def scenario_builder(config: RunConfig, engine: Engine):
    """The builder of this run's scenarios: the ruleset's builder for what ``engine`` supports (its generation
    profile), preceded by the draw of every explored option (0, the simplest answer, is its default, so shrinking
    goes back to the defaults). The document carries its ``options``."""
    build = builder_for(config.ruleset.name, engine.generation_profile(config.ruleset.name))
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


def canonical(trace: dict[str, Any] | None) -> str:
    return json.dumps(trace, sort_keys=True)


STREAM = "scenarios"
MAX_SKIP_REASONS = 50
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

    def note(self, check: ScenarioCheck, options: dict[str, Any] | None = None) -> None:
        """Count one judged scenario (before any failure of this rule was found); ``options``: the values of the
        explored options it was played with."""
        self.scenarios_run += 1
        if check.outcome.status != "trace":
            status = check.outcome.status
            self.engine_problems[status] = self.engine_problems.get(status, 0) + 1
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
        message = f"the engine's generation_profile raised {type(exc).__name__}: {exc}"
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
        share.note(check, drawn)
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
            for status, n in share.engine_problems.items():
                total.engine_problems[status] = total.engine_problems.get(status, 0) + n
            for name, counts in share.exercised_under.items():
                into = total.exercised_under.setdefault(name, {})
                for value, n in counts.items():
                    into[value] = into.get(value, 0) + n
            for reason, n in share.skip_reasons.items():
                _count_reason(total.skip_reasons, reason, n)
            total.first_problem = total.first_problem or share.first_problem
            total.engine_stderr = total.engine_stderr or share.engine_stderr
            total.engine_traceback = total.engine_traceback or share.engine_traceback
            total.check_error = total.check_error or share.check_error
            total.failure_index, total.failure_log = share.failure_index, share.failure_log
            total.failure_messages, total.failure_scenario = share.failure_messages, share.failure_scenario
            total.failure_trace = share.failure_trace
    return merged


def conclude(engine: Engine, reference: Engine, config: RunConfig, inv: Invariant,
             exploration: Exploration) -> RuleResult:
    """The verdict of one rule from its exploration: failures the example database already holds for the rule are
    replayed first (found earlier, here or on another machine); the first failure is shrunk against this rule
    alone, explained, replayed for determinism and set beside the reference engine's trace."""
    started = time.monotonic()
    result = RuleResult(inv.key, inv.rule_number(config.edition), inv.summary, "passed")
    key = database_key(config.engine_name, config.ruleset.name, config.edition,
                       json.dumps(config.options, sort_keys=True), inv.key)
    known = Exploration(inv.key, start=-1)  # replays of the database's failures come before the stream
    found: Built | None = None
    logs = known_failures(config.database, key)
    try:
        build = scenario_builder(config, engine) if logs or exploration.failure_log is not None else None
    except Exception:  # explore() already reported the engine's generation_profile raising
        build, logs, exploration = None, [], Exploration(**{**exploration.as_dict(), "failure_log": None,
                                                             "failure_index": None, "failure_trace": None})
    for log in logs:
        built = rebuild(build, config.edition, log)
        scenario = prepare_generated(config, built.document)
        check = check_scenario(engine, scenario, [inv])
        known.note(check)
        if check.failed:
            found, known.failure_index, known.failure_log = built, -1, list(built.log)
            known.failure_messages, known.failure_trace = list(check.violations[inv.key]), check.outcome.trace
            known.failure_scenario = scenario
            break
    share = merge([{inv.key: known}, {inv.key: exploration}])[inv.key]
    if found is None and share.failure_log is not None:
        found = rebuild(build, config.edition, share.failure_log)
    for name in ("scenarios_run", "scenarios_exercised", "engine_problems", "first_problem", "engine_stderr",
                 "engine_traceback", "check_error", "exercised_under", "skip_reasons"):
        setattr(result, name, getattr(share, name))

    misbehaviours = {k for k in result.engine_problems if k != "skipped"}
    if found is not None:
        result.status = "failed"
        result.failure = _minimise(engine, reference, config, inv, found, key, share)
        if result.failure.actual_trace is None:
            # No trace that violated the rule remains (the engine could play neither the shrunk scenario nor the
            # one found again, and the exploration's trace is gone): no FAIL without an actual trace.
            result.status, gone = "errored", result.failure
            result.failure = None
            result.engine_problems["unplayable-counterexample"] = 1
            result.first_problem = ("the scenario that failed the rule could not be played again and no trace that "
                                    "violated it was kept: " + "; ".join(gone.messages))
        elif result.failure.determinism == "nondeterministic":
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


def check_rule(engine: Engine, reference: Engine, config: RunConfig, inv: Invariant) -> RuleResult:
    """Explore the run's stream for one rule of ``config.ruleset`` against ``engine`` (stopping at its first
    failure), and conclude: the same verdict the rule gets in a run of every rule with the same seed."""
    started = time.monotonic()
    result = conclude(engine, reference, config, inv, explore(engine, config, [inv])[inv.key])
    result.seconds = round(time.monotonic() - started, 3)
    return result


class _Fails:
    """The shrinking predicate: ``fails(document)`` says whether ``document`` still fails ``inv`` on ``engine`` (None
    when the engine misbehaved or raised: no verdict). With ``reference``, a candidate the reference engine cannot
    play to a trace (a scenario that loops forever, say, as a merge of two objects can make) does not count as
    failing: a counterexample must come with the trace the rules require.

    It remembers the trace and the rule's messages of the last ``KEPT`` scenarios that violated the rule
    (:meth:`violation`), so that a counterexample the engine cannot play again (it crashed, raised, or used up its
    restart budget) still shows the trace that violated the rule; and counts the plays the engine refused because
    its restart budget was spent (``unavailable``, with the engine's message)."""

    KEPT = 64

    def __init__(self, engine: Engine, config: RunConfig, inv: Invariant, reference: Engine | None = None):
        self.engine, self.config, self.inv, self.reference = engine, config, inv, reference
        self._violating: dict[str, tuple[dict[str, Any], list[str]]] = {}
        self.unavailable, self.unavailable_message = 0, ""

    def __call__(self, document: dict[str, Any], fresh: bool = False) -> bool | None:
        """Whether ``document`` fails the rule; ``fresh``: played again even if the engine answered it before."""
        scenario = prepare_generated(self.config, document)
        check = check_outcome(scenario, self._play(self.engine, scenario, fresh), [self.inv])
        if check.outcome.misbehaved or check.outcome.status == "errored":
            if check.outcome.status == "unavailable":
                self.unavailable += 1
                self.unavailable_message = self.unavailable_message or check.outcome.message
            return None  # a crash, or an engine that raised, is no verdict (see shrinking.shrink)
        if check.failed and self.reference is not None and self._play(self.reference, scenario).status != "trace":
            return False
        if check.failed:
            self.remember(scenario, check.outcome.trace, check.violations[self.inv.key])
        return check.failed

    def fresh(self, document: dict[str, Any]) -> bool | None:
        """:meth:`__call__` on a new play (for the replays that judge whether the engine answers the same way)."""
        return self(document, fresh=True)

    def _play(self, engine: Engine, scenario: dict[str, Any], fresh: bool = False) -> EngineOutcome:
        """``engine``'s answer (the engine under test or the reference), from the run's PlayMemo unless ``fresh``."""
        memos = None if fresh else self.config.plays
        if memos is None:
            return play(engine, scenario)
        return (memos.engine if engine is self.engine else memos.reference).play(engine, scenario)

    def remember(self, scenario: dict[str, Any], trace: dict[str, Any] | None, messages: list[str]) -> None:
        if trace is None:
            return
        key = canonical(scenario)
        self._violating.pop(key, None)
        self._violating[key] = (trace, list(messages))
        while len(self._violating) > self.KEPT:
            self._violating.pop(next(iter(self._violating)))

    def violation(self, scenario: dict[str, Any]) -> tuple[dict[str, Any], list[str]] | None:
        """The trace and messages of the last play of ``scenario`` (prepared) that violated the rule, if kept."""
        return self._violating.get(canonical(scenario))


def _fails(engine: Engine, config: RunConfig, inv: Invariant, reference: Engine | None = None) -> _Fails:
    return _Fails(engine, config, inv, reference)


# When Hypothesis's shrinker stops on a slow engine (SLOW_PLAY seconds or more per play, phase.rs for one): once
# the scenarios it tried in a row without finding a smaller failing one are SHRINK_PATIENCE and as many as it took to
# find the last smaller one. Past that, what it still finds the scenario-level passes find faster, and the budget
# would cut it anyway. On a fast engine (the bundled ones) it goes on to the end, within the budget, so that the
# counterexample does not depend on the machine's speed.
SHRINK_PATIENCE = 50
SLOW_PLAY = 0.02


def _minimise(engine: Engine, reference: Engine, config: RunConfig, inv: Invariant, built: Built,
              key: bytes, found: Exploration | None = None) -> Failure:
    """Shrink a failing scenario against ``inv`` alone, within ``config.shrink_seconds``: the scenario-level passes
    of :mod:`conformance.reduction` first remove what the failure does not need from the scenario as found; then
    Hypothesis minimises its answer log (and keeps it in the example database) until it stops finding smaller
    failures (:data:`SHRINK_PATIENCE`, on a slow engine), and the scenario-level passes reduce what it found; the smaller of the two
    results is the counterexample, never larger than what was found. ``Failure.log`` builds the scenario only when
    it is Hypothesis's with nothing removed (it is empty otherwise).

    The failure always shows a trace that violated the rule: the shrunk scenario's, played again, or the last one it
    gave when the engine could still play it; failing both, the unshrunk scenario with the trace ``found`` (the
    exploration) kept. When none is left, ``Failure.actual_trace`` is None (:func:`conclude` then reports the rule
    errored). Plays refused because the engine's restart budget was spent are said in the messages."""
    build = scenario_builder(config, engine)
    fails = _fails(engine, config, inv, reference)
    if found is not None and found.failure_trace is not None and found.failure_messages:
        fails.remember(prepare_generated(config, built.document), found.failure_trace, found.failure_messages)
    started = time.monotonic()

    def left(share: float = 1.0) -> float:
        return max(1.0, share * (config.shrink_seconds - (time.monotonic() - started)))

    # Each step gets a share of what is left, so that the last, the passes over what Hypothesis found, always runs.
    pinned = set(config.options) - {name for name, _ in config.explored_options}  # kept as the run fixed them
    reduced_as_found = reduce_scenario(built.document, fails, well_formed, left(1 / 3), pinned)
    shrunk = shrink(build, config.edition, built.log, fails, key, config.database, left(1 / 2),
                    (SHRINK_PATIENCE, SLOW_PLAY),
                    replay=fails.fresh)
    flaky, notes = shrunk.nondeterministic, [n for n in (shrunk.nondeterministic, shrunk.shrink_error) if n]
    if scenario_size(shrunk.document) >= scenario_size(built.document):
        reduced, log = reduced_as_found, list(built.log) if reduced_as_found is built.document else []
    else:
        reduced = reduce_scenario(shrunk.document, fails, well_formed, left(), pinned)
        log = list(shrunk.log) if reduced is shrunk.document else []
        if scenario_size(reduced_as_found) < scenario_size(reduced):
            reduced, log = reduced_as_found, []
    scenario = prepare_generated(config, reduced)
    failure = explain_failure(engine, reference, config.ruleset, scenario, inv, log,
                              original_size=scenario_size(built.document), earlier=fails.violation(scenario))
    if failure.actual_trace is None:  # the unshrunk scenario, with the trace that violated the rule when found
        original = prepare_generated(config, built.document)
        kept = fails.violation(original)
        if kept is not None:
            failure = explain_failure(engine, reference, config.ruleset, original, inv, list(built.log),
                                      earlier=kept, replay=False)
            failure.messages.append("the shrunk scenario could not be played again: this is the scenario as found, "
                                    "unshrunk")
    if fails.unavailable:
        notes.append(f"shrinking ran out of engine restarts: the engine refused {fails.unavailable} plays "
                     f"({fails.unavailable_message})")
    failure.messages = failure.messages + notes  # e.g. the verdict changed between plays: both answers, counted
    if flaky:
        failure.determinism = "nondeterministic"
    return failure


def explain_failure(engine: Engine, reference: Engine, ruleset: Ruleset, scenario: dict[str, Any], inv: Invariant,
                    log: list[int], original_size: int | None = None,
                    earlier: tuple[dict[str, Any], list[str]] | None = None, replay: bool = True) -> Failure:
    """Everything a reader needs about one failing scenario: the violation, both traces, the other rules it breaks,
    and whether the engine answers it the same way every time.

    ``earlier``: the trace and messages of an earlier play of ``scenario`` that violated ``inv``, shown when the
    engine gives no trace this time (it crashed, raised, or cannot be restarted); with neither, ``actual_trace`` is
    None. ``replay=False`` uses ``earlier`` without playing the scenario again. A replay where the engine raised or
    crashed is said in the messages ("errored on replay"), never taken for nondeterminism."""
    invariants = ruleset.invariants_for(scenario["edition"])
    outcome = play(engine, scenario) if replay or earlier is None else None
    checked = check_trace(scenario, outcome.trace, invariants, outcome) \
        if outcome is not None and outcome.status == "trace" else None
    notes: list[str] = []
    if checked is None and earlier is not None:  # no trace this time: the one that violated the rule before
        if outcome is not None:
            notes.append(f"the engine gave no trace when the failing scenario was played again ({outcome.status}: "
                         f"{outcome.message[:300]}); the trace shown is the one it gave when it violated the rule")
        trace = earlier[0]
        outcome = EngineOutcome("trace", trace=trace)
        checked = check_trace(scenario, trace, invariants, outcome)
        messages = checked.violations.get(inv.key) or list(earlier[1])
    else:
        messages = (checked.violations.get(inv.key) if checked else None) or [
            (outcome.message if outcome is not None else "") or "no violation on replay"]
    also = sorted(k for k in (checked.violations if checked else {}) if k != inv.key)
    # Same scenario, same choices: a different answer is nondeterminism (a replay that crashes, times out or raises
    # is no answer: the engine errored on replay, which does not hide the failure found).
    unanswered: list[tuple[str, EngineOutcome]] = []
    replayed = replay_for_determinism(engine, scenario, DETERMINISM_REPLAYS, first=outcome,
                                      unanswered=unanswered) if outcome.status == "trace" else None
    determinism = "deterministic" if replayed is None else "nondeterministic"
    for label, bad in unanswered:
        if bad.status == "unavailable":  # not played at all (the restart budget is spent): said once above
            continue
        notes.append(f"errored on replay: {label} of the failing scenario gave no answer ({bad.status}: "
                     f"{bad.message[:300]}); an engine error, not a different answer")
    expected = play(reference, scenario)
    size = scenario_size(scenario)
    return Failure(
        messages=list(messages) + notes, scenario=scenario, log=log, original_size=original_size or size,
        shrunk_size=size, actual_trace=outcome.trace if outcome.status in ("trace", "garbage") else None,
        expected_trace=expected.trace if expected.status == "trace" else None,
        also_violates=also, determinism=determinism,
    )


__all__ = ["RunConfig", "PlayMemo", "PlayMemos", "RuleResult", "Failure", "Exploration", "check_rule", "conclude",
           "explain_failure", "explore", "merge", "EngineOutcome", "rule_seed", "stream_source"]
