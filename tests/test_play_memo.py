"""Shrinking does not play a candidate twice: the answers an engine gave are shared by every rule a run concludes
(conformance.running.runner.PlayMemo), and that changes no counterexample, only how many plays it costs."""

from __future__ import annotations

from conformance.running import concluding as concluding_module
from conformance.running.concluding import conclude
from conformance.running.runner import PlayMemo, PlayMemos, RunConfig, explore, prepare_generated
from conformance.generation.stream import stream_source
from conformance.running.runner import scenario_builder
from reference_engine.momon_wonder.engines.reference import MomonWonderEngine
from reference_engine.kernel.registry import MUTANTS
from reference_engine.kernel.registry import get_ruleset

RULESET = get_ruleset("momon-wonder")


class Counting:
    """An engine that counts its plays (and can be told to raise)."""

    def __init__(self, inner, raises: bool = False):
        self.inner, self.raises, self.plays = inner, raises, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def run(self, scenario, chooser):
        self.plays += 1
        if self.raises:
            raise RuntimeError("engine bug")
        return self.inner.run(scenario, chooser)


def _config(**overrides) -> RunConfig:
    # a budget no loaded machine reaches: the comparison is of the shrinker's results, not of where a deadline cut it
    values = dict(ruleset=RULESET, edition="1.0.0", options=RULESET.resolve_options({}), max_examples=100, seed=3,
                  shrink_seconds=600.0)
    return RunConfig(**{**values, **overrides})


def _scenario(n: int) -> dict:
    config = _config()
    return prepare_generated(config, scenario_builder(config, MomonWonderEngine())(stream_source(3, n), "1.0.0"))


def test_a_scenario_is_played_once_and_its_answer_given_back():
    engine, memo = Counting(MomonWonderEngine()), PlayMemo()
    first = memo.play(engine, _scenario(0))
    again = memo.play(engine, _scenario(0))
    other = memo.play(engine, _scenario(1))
    assert first.status == again.status == other.status == "trace"
    assert again.trace == first.trace and other.trace != first.trace
    assert engine.plays == 2 and (memo.hits, memo.misses) == (1, 2)


def test_an_engine_that_raised_is_asked_again():
    engine, memo = Counting(MomonWonderEngine(), raises=True), PlayMemo()
    assert memo.play(engine, _scenario(0)).status == "errored"
    assert memo.play(engine, _scenario(0)).status == "errored"
    assert engine.plays == 2 and memo.hits == 0


def test_the_least_recently_used_answer_goes_first():
    engine, memo = Counting(MomonWonderEngine()), PlayMemo(limit=2)
    for n in (0, 1, 0, 2):  # 1 is now the least recently used: dropped when 2 comes in
        memo.play(engine, _scenario(n))
    memo.play(engine, _scenario(0))
    assert engine.plays == 3
    memo.play(engine, _scenario(1))
    assert engine.plays == 4


def test_rules_failing_on_one_scenario_get_the_same_counterexamples_for_fewer_plays(monkeypatch):
    # Shared plays are memoized, so the two runs play at different speeds: on a loaded machine one could be taken for
    # a slow engine (concluding.SLOW_PLAY) and cut by the slow engine's patience, the other not. Never slow here.
    monkeypatch.setattr(concluding_module, "SLOW_PLAY", float("inf"))
    mutant = MUTANTS["mw-trigger-interrupts"]  # one fault, eight rules broken by the same first scenario
    invariants = RULESET.invariants_for("1.0.0")
    exploration = explore(mutant.factory(), _config(), invariants)
    failing = [inv for inv in invariants if exploration[inv.key].failure_index is not None][:3]
    assert len(failing) == 3

    def conclude_all(memos):
        engine, reference = Counting(mutant.factory()), Counting(MomonWonderEngine())
        config = _config(plays=memos)
        results = [conclude(engine, reference, config, inv, exploration[inv.key]) for inv in failing]
        return results, engine.plays + reference.plays

    alone, plays_alone = conclude_all(None)
    shared, plays_shared = conclude_all(PlayMemos())
    for a, b in zip(alone, shared):
        assert a.status == b.status == "failed"
        assert a.failure.scenario == b.failure.scenario
        assert a.failure.messages == b.failure.messages and a.failure.also_violates == b.failure.also_violates
        assert a.failure.actual_trace == b.failure.actual_trace and a.failure.determinism == "deterministic"
    assert plays_shared < plays_alone, (plays_shared, plays_alone)


class _RaisesFromNowOn:
    """A faulty engine that plays until told to stop, then raises on every play."""

    def __init__(self, inner):
        self.inner, self.broken = inner, False

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def run(self, scenario, chooser):
        if self.broken:
            raise RuntimeError("engine bug")
        return self.inner.run(scenario, chooser)


def test_a_failure_no_trace_of_which_is_left_is_errored_not_failed():
    """The exploration found a failure but kept no trace of it (as a database replay that is later lost would), and
    the engine now raises on every play: no FAIL without a trace that violated the rule, the rule is errored."""
    mutant = MUTANTS["mw-lifo"]
    inv = RULESET.invariant(mutant.expected_rule_key)
    engine = _RaisesFromNowOn(mutant.factory())
    exploration = explore(engine, _config(), [inv])[inv.key]
    assert exploration.failure_index is not None and exploration.failure_trace is not None
    exploration.failure_trace = None
    engine.broken = True
    result = conclude(engine, MomonWonderEngine(), _config(plays=PlayMemos()), inv, exploration)
    assert result.status == "errored" and result.failure is None
    assert result.engine_problems.get("unplayable-counterexample") == 1
    assert "could not be played again" in result.first_problem


def test_a_failure_whose_engine_breaks_while_shrinking_keeps_the_trace_found():
    """The same engine, with the exploration's trace kept: the FAIL shows the scenario as found and that trace."""
    mutant = MUTANTS["mw-lifo"]
    inv = RULESET.invariant(mutant.expected_rule_key)
    engine = _RaisesFromNowOn(mutant.factory())
    exploration = explore(engine, _config(), [inv])[inv.key]
    engine.broken = True
    result = conclude(engine, MomonWonderEngine(), _config(plays=PlayMemos()), inv, exploration)
    assert result.status == "failed"
    assert result.failure.actual_trace == exploration.failure_trace
    assert result.failure.scenario == exploration.failure_scenario
    assert any("errored on replay" in m or "gave no trace" in m for m in result.failure.messages)
