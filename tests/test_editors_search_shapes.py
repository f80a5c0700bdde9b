"""Issue 33 item 3: a search shape, built only when the editors' search asks for it. MTG's ``watcher_chain`` (an
ability on a signal, a watcher of it being put on the stack, a watcher of that watcher triggering, one player's) is
where ``pass_two_membership``'s readings differ; ``diff`` asks the generator for it when that option changes, so the
default diff finds ``triggering-or-stacking`` (tests/test_editors_diff_defaults.py, slow), while a run's stream, which
never asks, is unchanged (tests/test_stream_digest.py)."""

from __future__ import annotations

import pytest

from conformance.editors.analysis import Side
from conformance.editors.small import DEFAULT_SKEW, SmallSource
from conformance.editors.targeting import (
    Sample, aimed, change_between, reference_play, search_builder, skew_ladder,
)
from reference_engine.kernel.registry import builder_for, get_ruleset
from reference_engine.kernel.source import SeededSource
from reference_engine.kernel.traceview import TraceView
from reference_engine.mtg.generator import build_scenario

EDITION = "2026-02-27"
CHAIN = {"include": ["watcher_chain"]}


def _chain(scenario) -> tuple[str, str, str] | None:
    """(signalled, stacked watcher, triggered watcher) objects of a watcher chain in ``scenario``, if it has one."""
    specs = {obj["id"]: a for obj in scenario["objects"] for a in obj.get("abilities", ())}
    for z, spec in specs.items():
        y = spec["trigger"].get("subject") if spec["trigger"]["event"] == "ability_triggered" else None
        if y in specs and specs[y]["trigger"]["event"] == "ability_stacked":
            return specs[y]["trigger"]["subject"], y, z
    return None


def _mtg_sides(value: str):
    ruleset = get_ruleset("mtg")
    invariants = ruleset.invariants_for(EDITION)
    return ruleset, Side("published", EDITION, {}, invariants), Side(
        "draft", EDITION, {"pass_two_membership": value}, invariants)


def test_the_shape_is_drawn_last_and_only_when_included():
    built = 0
    for seed in range(60):
        plain, asked = SeededSource(seed), SeededSource(seed)
        without, with_ = build_scenario(plain, EDITION), build_scenario(asked, EDITION, CHAIN)
        assert _chain(without) is None  # the run's builder never chains watchers
        assert asked.log.startswith(plain.log)  # every answer before the shape's is the run's
        if _chain(with_) is None:
            assert with_ == without
            continue
        built += 1
        signalled, stacked, triggered = _chain(with_)
        owners = {o["id"]: o["owner"] for o in with_["objects"]}
        assert owners[signalled] == owners[stacked] == owners[triggered] not in with_.get("life", {})
        assert with_["script"][-1]["actions"][0]["effect"] == [{"do": "signal", "name": "chain"}]
        assert with_["objects"][:len(without["objects"])] == without["objects"]
    assert built >= 10


def test_an_unknown_shape_is_refused():
    with pytest.raises(ValueError, match="unknown MTG search shapes"):
        build_scenario(SeededSource(0), EDITION, {"include": ["nonsense"]})


def test_the_search_asks_for_the_shape_only_for_its_option():
    ruleset, published, draft = _mtg_sides("triggering-or-stacking")
    assert search_builder("mtg", change_between(ruleset, published, draft)) is not builder_for("mtg")
    other = Side("draft", EDITION, {"departed_delayed": "persist"}, published.invariants)
    assert search_builder("mtg", change_between(ruleset, published, other)) is builder_for("mtg")
    mw = get_ruleset("momon-wonder")
    sides = [Side(n, "1.0.0", o, mw.invariants_for("1.0.0")) for n, o in (("a", {}), ("b", {"sanctioned_play": True}))]
    assert search_builder("momon-wonder", change_between(mw, *sides)) is builder_for("momon-wonder")
    build, rungs = search_builder("mtg", change_between(ruleset, published, draft)), skew_ladder(DEFAULT_SKEW)
    chained = sum(_chain(build(SmallSource(n, *rungs[n % len(rungs)]), EDITION)) is not None for n in range(120))
    assert chained >= 6  # as aimed draws them: the skews in turn


def test_the_first_round_holds_a_candidate_whose_reference_plays_differ():
    ruleset, published, draft = _mtg_sides("triggering-or-stacking")
    sample = Sample()
    first = next(aimed(ruleset, published, draft, draws=40, sample=sample))
    assert first.decisive and _chain(first.document) is not None
    situation = next(s for s in ruleset.situations if s.name == "stacking-watcher-watched")
    play = reference_play(published, first.document)
    assert situation.occurs(TraceView(play.scenario, play.trace, play.scenario["options"]))
