"""The reference engines' speed structures give the answers of the plain ones they replace (issue 10, item 7).

* :class:`AbilityIndex` returns, for any event, every ability whose pattern the event satisfies, in scenario order
  (it may return more: the caller applies the pattern).
* :class:`Snapshot` over :class:`JournaledDict` reads exactly as a copy of the dict taken at opening would, whatever
  is written meanwhile and however snapshots nest; a closed snapshot refuses to be read.
* ``max_trace_entries`` is the reference engines' loop guard, 20,000 by default.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.registry import reference_engine_classes, reference_engine_for
from reference_engine.common.journal import JournaledDict, Snapshot
from reference_engine.common.vocabulary import AbilityIndex, pattern_matches

OBJECTS = ["O1", "O2", "O3"]
EVENT_TYPES = ["signal", "enter", "leave"]
NAMES = ["a", "b", None]

patterns = st.fixed_dictionaries(
    {"event": st.sampled_from(EVENT_TYPES)},
    optional={"name": st.sampled_from(NAMES), "subject": st.sampled_from(["any", "self", "other", *OBJECTS, "P1"])},
)
events = st.fixed_dictionaries(
    {"type": st.sampled_from(EVENT_TYPES)},
    optional={"name": st.sampled_from(NAMES), "subject": st.sampled_from([*OBJECTS, "X9", None])},
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(OBJECTS), patterns), max_size=12), st.lists(events, min_size=1, max_size=5))
def test_ability_index_finds_every_matching_ability_in_order(pairs, evs):
    abilities = [(source, {"id": f"A{n}", "trigger": pattern}) for n, (source, pattern) in enumerate(pairs)]
    index = AbilityIndex(abilities, OBJECTS)
    for event in evs:
        candidates = list(index.candidates(event))
        positions = [next(n for n, pair in enumerate(abilities) if pair[1] is ability) for _, ability in candidates]
        assert positions == sorted(set(positions))  # scenario order, each once
        matching = [(s, a) for s, a in abilities if pattern_matches(a["trigger"], event, s)]
        assert [(s, a["id"]) for s, a in candidates if pattern_matches(a["trigger"], event, s)] == \
            [(s, a["id"]) for s, a in matching]


class Box:
    """A minimal state: two journaled dicts and a list, with a copy() like the MTG engine's State."""

    def __init__(self, a, b, rest):
        self.a, self.b, self.rest = a, b, rest

    def copy(self):
        return Box(dict(self.a), dict(self.b), list(self.rest))


keys = st.sampled_from(["k1", "k2", "k3", "k4"])
operations = st.one_of(
    st.tuples(st.just("set"), st.sampled_from("ab"), keys, st.integers(0, 3)),
    st.tuples(st.just("pop"), st.sampled_from("ab"), keys, st.none()),
    st.tuples(st.just("del"), st.sampled_from("ab"), keys, st.none()),
    st.tuples(st.just("setdefault"), st.sampled_from("ab"), keys, st.integers(0, 3)),
    st.tuples(st.just("update"), st.sampled_from("ab"), keys, st.integers(0, 3)),
    st.tuples(st.just("clear"), st.sampled_from("ab"), st.none(), st.none()),
    st.tuples(st.just("rest"), st.none(), st.none(), st.integers(0, 3)),
    st.tuples(st.just("open"), st.none(), st.none(), st.none()),
    st.tuples(st.just("close"), st.none(), st.none(), st.none()),
)


def apply(box: Box, op) -> None:
    kind, name, key, value = op
    target = getattr(box, name) if name else None
    if kind == "set":
        target[key] = value
    elif kind == "pop":
        target.pop(key, None)
    elif kind == "del" and key in target:
        del target[key]
    elif kind == "setdefault":
        target.setdefault(key, value)
    elif kind == "update":
        target.update({key: value})
    elif kind == "clear":
        target.clear()
    elif kind == "rest":
        box.rest.append(value)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, st.integers(0, 3)), st.lists(operations, max_size=30))
def test_snapshot_reads_as_a_copy_taken_at_opening(initial, ops):
    box = Box(JournaledDict(initial), JournaledDict(reversed(list(initial.items()))), [])
    stack = []  # (context manager, view, expected copy)
    for op in ops:
        if op[0] == "open":
            manager = Snapshot(box, ("a", "b"))
            stack.append((manager, manager.__enter__(), box.copy()))
        elif op[0] == "close":
            if stack:
                manager, view, _ = stack.pop()
                manager.__exit__(None, None, None)
                with pytest.raises(RuntimeError):
                    view.a.get("k1")
        else:
            apply(box, op)
        for _, view, expected in stack:
            for name in "ab":
                seen, want = getattr(view, name), getattr(expected, name)
                assert list(seen.items()) == list(want.items())  # same content, same order
                assert len(seen) == len(want)
                for key in ("k1", "k2", "k3", "k4"):
                    assert (key in seen) == (key in want)
                    assert seen.get(key, "absent") == want.get(key, "absent")
            assert view.rest == expected.rest
    assert dict(box.a) == box.a.copy()  # copies of a JournaledDict are plain dicts
    assert type(box.a.copy()) is dict


def test_snapshot_costs_no_copy_of_the_journaled_dicts():
    big = JournaledDict((f"k{n}", n) for n in range(1000))
    box = Box(big, JournaledDict(), [1])
    with Snapshot(box, ("a", "b")) as before:
        big["k5"] = -1
        assert before.a["k5"] == 5 and box.a["k5"] == -1
        assert before.a._full is None and list(before.a._saved) == ["k5"]  # one key remembered, nothing copied
        assert before.rest == [1] and before.rest is not box.rest
    assert big._open == []


def test_max_trace_entries_is_the_engines_loop_guard():
    from reference_engine.kernel.schemas import bundled

    for ruleset, cls in reference_engine_classes().items():
        if ruleset not in bundled():  # the bundled engines' shared base class: a fourth ruleset's engine is its own
            continue
        assert reference_engine_for(ruleset).max_trace_entries == 20_000
        with pytest.raises(ValueError):
            cls(max_trace_entries=0)
    objects = [{"id": f"O{k}", "owner": "P1", "zone": "field",
                "abilities": [{"id": f"A{k}", "trigger": {"event": "signal", "name": "go"}, "effect": []}]}
               for k in range(50)]
    scenario = {"format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder", "edition": "1.0.0",
                "players": ["P1", "P2"], "active_player": "P1", "objects": objects,
                "script": [{"actions": [{"by": "P1", "effect": [{"do": "signal", "name": "go"}]}]}],
                "options": {"same_event_order": "object-order", "package_contents": "all-summon-event-triggers",
                            "snatch_check_triggers": "post-snatch", "sbc_events": True,
                            "failed_summon_event": "ordinary-event", "sanctioned_play": False,
                            "optional_choice": "on-resolution", "intervening_recheck": True,
                            "sbc_defeat_order": "marked-order"}}
    cls = reference_engine_classes()["momon-wonder"]
    entries = len(cls().run(scenario, ScenarioChooser(scenario))["entries"])
    assert entries > 100
    with pytest.raises(RuntimeError, match="100 trace entries"):
        cls(max_trace_entries=100).run(scenario, ScenarioChooser(scenario))
    assert len(cls(max_trace_entries=entries).run(scenario, ScenarioChooser(scenario))["entries"]) == entries


def test_max_trace_entries_reaches_the_bundled_engines_from_the_cli_and_the_run_spec():
    from conformance.adapters.registry import load_engine
    from conformance.commands.cli import build_parser
    from conformance.running.session import RunSpec

    assert load_engine("reference", "mtg").max_trace_entries == 20_000
    assert load_engine("reference", "mtg", max_trace_entries=123).max_trace_entries == 123
    mutant = next(iter(__import__("reference_engine.kernel.registry", fromlist=["MUTANTS"]).MUTANTS))
    assert load_engine(f"mutant:{mutant}", "momon-wonder", max_trace_entries=77).max_trace_entries == 77
    args = build_parser().parse_args(["run", "--ruleset", "mtg", "--max-trace-entries", "500000"])
    assert args.max_trace_entries == 500_000
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--ruleset", "mtg", "--max-trace-entries", "0"])
    assert RunSpec(**dataclasses.asdict(RunSpec(max_trace_entries=9))).max_trace_entries == 9


def test_a_bundled_engine_allowed_longer_plays_raises_the_harness_cap_on_traces():
    from reference_engine.kernel.engine import Engine, EngineInfo
    from conformance.running.checking import MAX_TRACE_ENTRIES, play

    class Long(Engine):
        modifies_scenarios = False

        def __init__(self, max_trace_entries=None):
            if max_trace_entries is not None:
                self.max_trace_entries = max_trace_entries

        @property
        def info(self):
            return EngineInfo("long", "0", {"momon-wonder": ["1.0.0"]})

        def run(self, scenario, chooser):
            entries = [{"kind": "step_begin", "step": 0}] * (MAX_TRACE_ENTRIES + 1)
            return {"format": "trigger-conformance/trace/1", "entries": entries}

    scenario = {"ruleset": "momon-wonder", "edition": "1.0.0", "objects": [], "players": ["P1"]}
    capped = play(Long(), scenario)
    assert capped.status == "garbage" and f"budget of {MAX_TRACE_ENTRIES}" in capped.message and "--max-trace-entries" in capped.message
    assert play(Long(max_trace_entries=2 * MAX_TRACE_ENTRIES), scenario).status == "trace"


def test_the_mtg_engine_state_fingerprint_covers_every_field_of_the_state():
    """The MTG engine skips a state-based-action check when the state's fingerprint has not changed: the journaled
    per-object dicts by their write counts, the other fields of ``State`` by value. A field added to ``State`` must be
    added to the fingerprint too."""
    from dataclasses import fields

    from reference_engine.mtg.engines.reference import PER_OBJECT, Game
    from reference_engine.mtg.engines.rules import State

    assert {f.name for f in fields(State)} - set(PER_OBJECT) == {"life", "left", "owners"}
    scenario = {"edition": "2026-02-27", "players": ["P1", "P2"], "active_player": "P1", "objects": [], "script": []}
    game = Game(scenario, ScenarioChooser(scenario))
    before = game.state_fingerprint()
    game.state.life["P1"] -= 1
    assert game.state_fingerprint() != before
    game.state.life["P1"] += 1
    assert game.state_fingerprint() == before
    game.state.left.append("P2")
    assert game.state_fingerprint() != before
    game.state.left.pop()
    assert game.state_fingerprint() == before
    game.state.owners = dict(game.state.owners)  # the owners never change in a game: covered by identity
    assert game.state_fingerprint() != before
