"""Coverage (issue 10, item 2): the situations of each ruleset measured on the run's stream against goals, the
nesting depth of events, and the command that prints it."""

from __future__ import annotations

import statistics

import pytest

from conformance.commands import cli
from conformance.running.coverage import Coverage, goals_met, measure
from conformance.running.runner import RunConfig
from conformance.generation.stream import explorable_options
from reference_engine.kernel.situations import AT_MOST, Situation, depths, nesting
from reference_engine.kernel.traceview import TraceView
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.registry import RULESETS, get_ruleset
from reference_engine.kernel.schemas import bundled
from reference_engine.kernel.situations import COMMON, SizeGoals, common

SCENARIO = {"format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder", "edition": "1.0.0",
            "players": ["P1"], "active_player": "P1", "objects": [], "script": [], "options": {}}


def _event(id_, cause):
    return {"kind": "event", "id": id_, "position": int(id_[1:]), "type": "signal", "cause": cause}


def _trigger(id_, event):
    return {"kind": "trigger", "id": id_, "ability": "A", "source": "X", "controller": "P1", "event": event}


def test_depth_counts_resolutions_and_keeps_counting_through_checks():
    entries = [
        {"kind": "action_begin", "action": [0, 0]}, _event("E1", {"action": [0, 0]}), _trigger("T1", "E1"),
        {"kind": "action_end", "action": [0, 0]},
        {"kind": "resolve_begin", "trigger": "T1"}, _event("E2", {"resolution": "T1"}), _trigger("T2", "E2"),
        {"kind": "resolve_end", "trigger": "T1"},
        {"kind": "resolve_begin", "trigger": "T2"}, _event("E3", {"resolution": "T2"}),
        {"kind": "resolve_end", "trigger": "T2"},
        {"kind": "sbc_check", "id": "S1"}, _event("E4", {"sbc": "S1"}), _trigger("T3", "E4"),
        {"kind": "resolve_begin", "trigger": "T3"}, _event("E5", {"resolution": "T3"}),
        {"kind": "resolve_end", "trigger": "T3"},
    ]
    view = TraceView(SCENARIO, {"format": "trigger-conformance/trace/1", "entries": entries}, {})
    assert depths(view) == {"E1": 0, "E2": 1, "E3": 2, "E4": 2, "E5": 3}
    assert nesting(view) == 3


def test_goals_are_at_least_or_at_most():
    often = Situation("often", "x", lambda v: True)
    rarely = Situation("rarely", "x", lambda v: True, AT_MOST, 0.10)
    found = Coverage(scenarios=100, played=100, situations={"often": 1, "rarely": 50}, events=[30] * 100,
                     nesting=[3] * 100)
    missed = goals_met(found, (often, rarely))
    assert any(m.startswith("often: 1.0%") for m in missed) and any(m.startswith("rarely: 50.0%") for m in missed)
    found.situations = {"often": 2, "rarely": 10}
    assert goals_met(found, (often, rarely)) == []
    found.events = [5] * 100
    assert goals_met(found, (often, rarely)) == ["median events 5.0 (goal: at least 20)"]


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_ruleset_lists_situations_with_unique_names(name):
    names = [s.name for s in get_ruleset(name).situations]
    assert len(names) == len(set(names)) and "nothing-triggers" in names
    if name in bundled():
        assert len(names) >= 10 and {s.name for s in COMMON} <= set(names)
        assert get_ruleset(name).size_goals == SizeGoals(events=20, nesting=3)


def test_a_ruleset_leaves_out_the_common_situations_its_words_cannot_express():
    kept = common("players-3-4", "optional-declined")
    assert [s.name for s in kept] == [s.name for s in COMMON if s.name not in {"players-3-4", "optional-declined"}]
    with pytest.raises(KeyError, match="not common situations: ping"):
        common("ping")


@pytest.mark.first_quick  # the first quick, the other rulesets' 1,000 scenarios slow (issue 26)
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_goal_is_met_on_the_run_stream(name):
    ruleset = get_ruleset(name)
    config = RunConfig(ruleset, ruleset.default_edition, ruleset.resolve_options({}), max_examples=1000, seed=0,
                       explored_options=explorable_options(ruleset, {}))
    found = measure(reference_engine_for(name), config, ruleset.situations)
    assert found.played == 1000, found.problems
    assert goals_met(found, ruleset.situations, ruleset.size_goals) == []
    # What the goals mean, checked directly as well: each listed situation, the waste, the size (its own goals).
    assert all(found.situations[s.name] >= 1000 * s.share for s in ruleset.situations if s.goal == "at-least")
    waste = next(s for s in ruleset.situations if s.name == "nothing-triggers")
    assert found.situations["nothing-triggers"] <= 1000 * waste.share
    size = ruleset.size_goals
    assert statistics.median(found.events) >= size.events and statistics.median(found.nesting) >= size.nesting


def test_the_command_prints_the_table_and_can_fail_on_goals(capsys):
    assert cli.main(["coverage", "--ruleset", "redemption", "--max-examples", "30"]) == 0
    out = capsys.readouterr().out
    assert "negation" in out and "nesting per scenario" in out and "option mandatory_after_phase" in out
    assert cli.main(["coverage", "--ruleset", "redemption", "--max-examples", "3", "--check-goals"]) == 1
