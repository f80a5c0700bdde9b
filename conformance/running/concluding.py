"""Concluding a rule from its exploration: replay the database's failures, shrink the first, explain it.

:func:`conclude` turns one rule's :class:`conformance.running.runner.Exploration` into its :class:`conformance.running.runner.RuleResult`:
failures the example database already holds for the rule are replayed first (found earlier, on this machine or
another sharing the database); the first failure is shrunk against that rule (:func:`_minimise`: the scenario-level
passes of :mod:`conformance.shrinking.reduction`, Hypothesis on the answer log, :mod:`conformance.shrinking.shrinker`, then the passes
again), judged again with every rule of the ruleset, replayed to check that the engine answers the same way each
time, and set beside the reference engine's trace (:func:`explain_failure`). :func:`check_rule` explores and
concludes one rule on its own (the self-check and the tests).
"""

from __future__ import annotations

import json
import time
from typing import Any

from reference_engine.kernel.engine import Engine
from conformance.running.checking import (
    EngineOutcome, check_outcome, check_scenario, check_trace, play, replay_for_determinism,
)
from conformance.generation.engine_profile import profile_guard
from conformance.shrinking.reduction import reduce_scenario, scenario_size, well_formed
from conformance.running.runner import (
    DETERMINISM_REPLAYS, UNKNOWN_INDEX, Exploration, RunConfig, RuleResult, Failure, canonical, explore, merge,
    prepare_generated, scenario_builder,
)
from conformance.generation.stream import stream_source
from conformance.shrinking.shrinker import Built, database_key, known_failures, rebuild, shrink
from reference_engine.kernel.invariant import Invariant
from reference_engine.kernel.ruleset import Ruleset


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
    elif result.check_error or (misbehaviours and lost_needed(engine, reference, config, inv, share)):
        result.status = "errored"
    elif result.scenarios_exercised == 0:
        declined = result.engine_problems.get("skipped", 0) == result.scenarios_run - lost_count(share)
        result.status = "skipped" if declined else "unexercised"
    if result.status in ("passed", "unexercised", "skipped"):
        result.scenarios_lost = lost_count(share)
    result.seconds = round(time.monotonic() - started, 3)
    return result


def lost_count(share: Exploration) -> int:
    """How many scenarios of a rule's exploration the engine did not answer (neither a trace nor a skip)."""
    return sum(n for status, n in share.engine_problems.items() if status != "skipped")


def lost_needed(engine: Engine, reference: Engine, config: RunConfig, inv: Invariant, share: Exploration) -> bool:
    """Whether the rule needed a scenario the engine did not answer (it crashed, timed out, raised, wrote garbage, or
    was unavailable), so that its verdict cannot stand: a crash costs the scenario it happened on, and only the
    rules that needed that scenario.

    A rule needed a lost scenario when the reference engine's trace of it exercises the rule (or violates it, or its
    check raises on it), or when the reference engine gives no trace of it; and it needs every lost scenario it
    cannot tell apart: when the engine answered none of its scenarios, when more were lost than
    :data:`conformance.running.runner.MAX_LOST`, or when a lost one is not one of the stream's (a replay of a failure the
    example database held). The reference engine's answers come from the run's play memo when it has one, so each
    lost scenario is played once for every rule."""
    lost = lost_count(share)
    if lost <= 0:
        return False
    if lost > len(share.lost) or UNKNOWN_INDEX in share.lost or lost >= share.scenarios_run - \
            share.engine_problems.get("skipped", 0):
        return True
    try:
        build = scenario_builder(config, engine)
    except Exception:  # explore() already reported the engine's generation_profile raising
        return True
    memo = config.plays.reference if config.plays is not None else None
    for n in share.lost:
        scenario = prepare_generated(config, build(stream_source(config.seed, n), config.edition))
        outcome = memo.play(reference, scenario) if memo is not None else play(reference, scenario)
        check = check_outcome(scenario, outcome, [inv])
        if (check.outcome.status != "trace" or check.exercised.get(inv.key, 0) > 0 or inv.key in check.violations
                or inv.key in check.check_errors):
            return True
    return False


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
# find the last smaller one, or after SLOW_SHRINK_PLAYS plays. Past that, what it still finds the scenario-level
# passes find faster (on phase.rs at 200 examples, seeds 1: Hypothesis ran into the time budget on six rules of eight
# and never found a scenario smaller than the passes over the scenario as found), and a time budget would cut it
# wherever the machine's load left it. On a fast engine (the bundled ones) it goes on to the end, within the budget,
# so that the counterexample does not depend on the machine's speed.
SHRINK_PATIENCE = 50
SLOW_PLAY = 0.02
SLOW_SHRINK_PLAYS = 100


def _minimise(engine: Engine, reference: Engine, config: RunConfig, inv: Invariant, built: Built,
              key: bytes, found: Exploration | None = None) -> Failure:
    """Shrink a failing scenario against ``inv`` alone, within ``config.shrink_seconds``: the scenario-level passes
    of :mod:`conformance.shrinking.reduction` first remove what the failure does not need from the scenario as found; then
    Hypothesis minimises its answer log (and keeps it in the example database) until it stops finding smaller
    failures (:data:`SHRINK_PATIENCE`, on a slow engine), and the scenario-level passes reduce what it found; the smaller of the two
    results is the counterexample, never larger than what was found. ``Failure.log`` builds the scenario only when
    it is Hypothesis's with nothing removed (it is empty otherwise).

    The failure always shows a trace that violated the rule: the shrunk scenario's, played again, or the last one it
    gave when the engine could still play it; failing both, the unshrunk scenario with the trace ``found`` (the
    exploration) kept. When none is left, ``Failure.actual_trace`` is None (:func:`conclude` then reports the rule
    errored). Plays refused because the engine's restart budget was spent are said in the messages."""
    build = scenario_builder(config, engine)
    # What the passes may play: well formed, and within the engine's profile (what they start from is built within
    # it; a rewrite must not bring in a kind of trigger or action the engine declared it cannot play).
    profile = engine.generation_profile(config.ruleset.name)
    fails = _fails(engine, config, inv, reference)
    if found is not None and found.failure_trace is not None and found.failure_messages:
        fails.remember(prepare_generated(config, built.document), found.failure_trace, found.failure_messages)
    started = time.monotonic()

    def left(share: float = 1.0) -> float:
        # at least a second, or what the shrink was given when less (a time budget spent)
        spent = time.monotonic() - started
        return max(min(1.0, config.shrink_seconds), share * (config.shrink_seconds - spent))

    # Each step gets a share of what is left, so that the last, the passes over what Hypothesis found, always runs.
    pinned = set(config.options) - {name for name, _ in config.explored_options}  # kept as the run fixed them
    reduced_as_found = reduce_scenario(built.document, fails, profile_guard(profile, built.document, well_formed),
                                       left(1 / 3), pinned)
    shrunk = shrink(build, config.edition, built.log, fails, key, config.database, left(1 / 2),
                    (SHRINK_PATIENCE, SLOW_PLAY, SLOW_SHRINK_PLAYS),
                    replay=fails.fresh)
    flaky, notes = shrunk.nondeterministic, [n for n in (shrunk.nondeterministic, shrunk.shrink_error) if n]
    if scenario_size(shrunk.document) >= scenario_size(built.document):
        reduced, log = reduced_as_found, list(built.log) if reduced_as_found is built.document else []
    else:
        reduced = reduce_scenario(shrunk.document, fails, profile_guard(profile, shrunk.document, well_formed),
                                  left(), pinned)
        log = list(shrunk.log) if reduced is shrunk.document else []
        if scenario_size(reduced_as_found) < scenario_size(reduced):
            reduced, log = reduced_as_found, []
    scenario = prepare_generated(config, reduced)
    shrunk_at = time.monotonic()
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
    failure.shrink_seconds = round(shrunk_at - started, 3)
    failure.explain_seconds = round(time.monotonic() - shrunk_at, 3)
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


__all__ = ["check_rule", "conclude", "explain_failure"]
