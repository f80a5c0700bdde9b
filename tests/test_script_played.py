"""Every ruleset asks for the scenario's script played as written (reference_engine.kernel.script): a trace that leaves
out, repeats or reorders a scripted action or a step fails the ruleset's "performed completely" rule, in both
directions; an early end the ruleset allows (a Redemption effect ending the phase, an MTG game ending) is no fault."""

from __future__ import annotations

import copy

import pytest

from conformance.running.checking import check_trace, play
from conformance.running.runner import RunConfig, prepare_generated, scenario_builder
from conformance.generation.stream import explorable_options, stream_source
from reference_engine.kernel.script import script_problems
from reference_engine.kernel.traceview import TraceView
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.registry import get_ruleset

RULE = {"momon-wonder": "mw.resolve-completely", "mtg": "mtg.resolution-effect", "redemption": "red.effect-carried-out"}


def _played(ruleset_name: str, actions: int = 2):
    """A generated scenario of ``ruleset_name`` with at least ``actions`` scripted actions, and its reference trace."""
    ruleset = get_ruleset(ruleset_name)
    engine = reference_engine_for(ruleset_name)
    config = RunConfig(ruleset, ruleset.default_edition, ruleset.resolve_options({}), seed=4,
                       explored_options=explorable_options(ruleset, {}))
    build = scenario_builder(config, engine)
    for n in range(500):
        scenario = prepare_generated(config, build(stream_source(4, n), config.edition))
        trace = play(engine, scenario).trace
        kinds = [e["kind"] for e in trace["entries"]]
        ended = any(e.get("type") == "end_phase" for e in trace["entries"]) or "game_over" in kinds
        if kinds.count("action_begin") >= actions and not ended:
            return ruleset, scenario, trace
    raise AssertionError("no scenario with enough scripted actions")


def _verdict(ruleset, scenario, trace) -> list[str]:
    inv = ruleset.invariant(RULE[ruleset.name])
    return check_trace(scenario, trace, [inv]).violations.get(inv.key, [])


@pytest.mark.parametrize("name", sorted(RULE))
def test_the_reference_trace_plays_the_script(name):
    ruleset, scenario, trace = _played(name)
    assert script_problems(TraceView(scenario, trace, scenario["options"])) == []
    assert _verdict(ruleset, scenario, trace) == []


@pytest.mark.parametrize("name", sorted(RULE))
def test_a_scripted_action_left_out_fails(name):
    ruleset, scenario, trace = _played(name)
    last = max(i for i, e in enumerate(trace["entries"]) if e["kind"] == "action_begin")
    # The trace stops where the last scripted action would begin, as an engine that skipped it would write it (every
    # entry refers only to earlier ones, so what is left is a consistent trace).
    broken = {**trace, "entries": trace["entries"][:last]}
    messages = _verdict(ruleset, scenario, broken)
    assert any("played as written" in m for m in messages), messages


@pytest.mark.parametrize("name", sorted(RULE))
def test_a_trace_with_nothing_in_it_fails(name):
    ruleset, scenario, trace = _played(name)
    messages = _verdict(ruleset, scenario, {**trace, "entries": []})
    assert any("the trace ends before step_begin of step 0" in m for m in messages), messages


@pytest.mark.parametrize("name", sorted(RULE))
def test_a_scripted_action_played_twice_or_out_of_order_fails(name):
    ruleset, scenario, trace = _played(name)
    entries = trace["entries"]
    begins = [i for i, e in enumerate(entries) if e["kind"] == "action_begin"]
    twice = {**trace, "entries": entries + [dict(entries[begins[0]])]}
    assert any("not in the script" in m or "played as written" in m for m in _verdict(ruleset, scenario, twice))
    swapped = copy.deepcopy(trace)
    first, second = begins[0], begins[1]
    swapped["entries"][first]["action"], swapped["entries"][second]["action"] = (
        entries[second]["action"], entries[first]["action"])
    assert any("played as written" in m for m in _verdict(ruleset, scenario, swapped))


def test_a_step_ended_early_by_an_effect_skips_its_remaining_actions_in_redemption():
    """Redemption: an end_phase event ends the step once the action performing it completes; the step's later
    actions are then not due, and the step still advances."""
    scenario = {"script": [{"step": "discard", "actions": [{"by": "P1", "effect": []}, {"by": "P1", "effect": []},
                                                              {"by": "P1", "effect": []}]}]}
    entries = [{"kind": "step_begin", "step": 0}, {"kind": "action_begin", "action": [0, 0]},
               {"kind": "event", "id": "E1", "type": "end_phase"}, {"kind": "action_end", "action": [0, 0]},
               {"kind": "step_advance", "from": 0}]
    view = _bare_view(scenario, entries)
    ends = dict(ends_step=lambda e: e.get("type") == "end_phase", early_kinds=("event",))
    assert script_problems(view, **ends) == []
    assert script_problems(view) != []  # without the early end, actions [0, 1] and [0, 2] were due
    unended = _bare_view(scenario, [e for e in entries if e["kind"] != "event"])
    assert script_problems(unended, **ends) != []


def test_a_game_that_ended_owes_nothing_more_of_the_script_in_mtg():
    scenario = {"script": [{"actions": [{"by": "P1", "effect": []}]}, {"actions": [{"by": "P1", "effect": []}]}]}
    entries = [{"kind": "step_begin", "step": 0}, {"kind": "action_begin", "action": [0, 0]},
               {"kind": "game_over", "result": "draw"}]
    over = dict(ends_game=lambda e: True, early_kinds=("game_over",))
    assert script_problems(_bare_view(scenario, entries), **over) == []
    assert script_problems(_bare_view(scenario, entries[:2]), **over) != []


class _bare_view:  # noqa: N801 - the two attributes of a TraceView that script_problems reads
    def __init__(self, scenario, entries):
        self.scenario, self.entries = scenario, entries
        self.by_kind: dict[str, list[int]] = {}
        for i, e in enumerate(entries):
            self.by_kind.setdefault(e["kind"], []).append(i)


def test_a_rule_that_found_a_violation_counts_that_scenario_as_exercised():
    """A reviewer saw FAIL rows saying "0 exercised": a scenario on which a rule reports a violation is one the rule
    applied to, whatever its own count of situations (an empty trace has no resolution to count)."""
    from conformance.running.runner import explore

    class EmptyTrace:
        def __init__(self):
            self.inner = reference_engine_for("momon-wonder")

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def run(self, scenario, chooser):
            return {**self.inner.run(scenario, chooser), "entries": []}

    ruleset = get_ruleset("momon-wonder")
    config = RunConfig(ruleset, "1.0.0", ruleset.resolve_options({}), max_examples=5, seed=1)
    found = explore(EmptyTrace(), config, [ruleset.invariant(RULE["momon-wonder"])])[RULE["momon-wonder"]]
    assert found.failure_index == 0 and found.scenarios_exercised == 1
