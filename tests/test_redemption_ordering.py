"""Redemption TA.4 and TA.5 walk each batch once (reference_engine/redemption/judge/invariants/_ordering.py) instead of
listing its pairs (issue 34: quadratic memory on a large batch). What they find is what the pairs, taken one by one
(observations.ordered_pairs, the definition), say: on generated scenarios played by the reference engine and every
faulty one, each also judged against other answers than those it played with (so that players' own orders break),
and against answers that leave one card's triggers tied."""

from __future__ import annotations

import copy
import itertools
import random

import pytest

from conformance.running.checking import play
from redemption_support import EDITION, prepared
from reference_engine.kernel.registry import MUTANTS, reference_engine_for
from reference_engine.kernel.source import SeededSource
from reference_engine.kernel.traceview import TraceView
from reference_engine.redemption.generator import build_scenario
from reference_engine.redemption.judge.drafts import _seats_from_first_seat
from reference_engine.redemption.judge.invariants._ordering import (
    batch_answers, both_optional, involves_mandatory, own_order_occasions, seat_occasions,
)
from reference_engine.redemption.judge.observations import (
    optional_triggers, ordered_pairs, prefers, replay, seat_order,
)

FILTERS = {"involves_mandatory": involves_mandatory, "both_optional": both_optional}


def pairwise(view: TraceView, keep, seats: dict[str, int]) -> dict[str, list]:
    """The four answers, from every kept pair of every batch taken one by one."""
    found = {"seat": [], "own": [], "seat_occasions": 0, "own_occasions": 0}
    optional, triggers = optional_triggers(view), view.triggers
    for batch in replay(view).batches:
        pairs = [(a, b, triggers[a]["controller"], triggers[b]["controller"]) for a, b in ordered_pairs(view, batch)
                 if keep.on_flags(a in optional, b in optional)]
        breach = next(((batch, a, b) for a, b, pa, pb in pairs if seats.get(pa, 0) > seats.get(pb, 0)), None)
        found["seat"] += [breach] if breach else []
        found["own"] += [(a, b) for a, b, pa, pb in pairs if pa == pb and prefers(view, pa, a, b) is False]
        found["seat_occasions"] += any(pa != pb for _, _, pa, pb in pairs)
        found["own_occasions"] += any(pa == pb and prefers(view, pa, a, b) is not None for a, b, pa, pb in pairs)
    return found


def walked(view: TraceView, keep, seats: dict[str, int]) -> dict[str, list]:
    answers = batch_answers(view, keep, seats)
    return {"seat": [(found.batch, *found.seat_breach) for found in answers if found.seat_breach],
            "own": [pair for found in answers for pair in found.own_breaches],
            "seat_occasions": seat_occasions(view, keep), "own_occasions": own_order_occasions(view, keep)}


def with_other_answers(scenario: dict, seed: int) -> dict:
    """The scenario with its abilities' preferred order shuffled: a trace played with it breaks the players' own
    orders of the original scenario."""
    other = copy.deepcopy(scenario)
    abilities = [a["id"] for obj in other["objects"] for a in obj.get("abilities", [])]
    random.Random(seed).shuffle(abilities)
    other.setdefault("choices", {})["trigger_order"] = abilities
    return other


def with_ties(scenario: dict) -> dict:
    """The scenario with no preferred order of abilities: the triggers of one card tie (only cards are ranked)."""
    return {**scenario, "choices": {**scenario.get("choices", {}), "trigger_order": []}}


ENGINES = [("reference", reference_engine_for("redemption"), {})] + [
    (m.name, m.factory(), dict(m.options)) for m in MUTANTS.values() if m.ruleset == "redemption"]


@pytest.mark.parametrize("seeds", [range(6), pytest.param(range(6, 40), marks=pytest.mark.slow),
                                   pytest.param(range(40, 150), marks=(pytest.mark.slow, pytest.mark.nightly))],
                         ids=["quick", "more", "many"])  # the last too long for .ci/run's 15 minutes
def test_the_walks_find_what_the_pairs_one_by_one_find(seeds):
    found = dict.fromkeys(["seat", "own", "seat_occasions", "own_occasions"], 0)
    for seed in seeds:
        base = build_scenario(SeededSource(seed), EDITION)
        reading = ("after-pending", "before-pending")[seed % 2]
        for name, engine, options in ENGINES:
            scenario = prepared(base, **{"trigger_during_resolution": reading, **options})
            ties = with_ties(scenario)
            for played_with in (scenario, with_other_answers(scenario, seed)):
                outcome = play(engine, played_with)
                assert outcome.status == "trace", (seed, name, outcome.message)
                for (filter_name, keep), judged_by in itertools.product(FILTERS.items(), (scenario, ties)):
                    view = TraceView(judged_by, outcome.trace, scenario["options"])
                    for seats in (seat_order(view), _seats_from_first_seat(view)):
                        expected = pairwise(view, keep, seats)
                        assert walked(view, keep, seats) == expected, (seed, name, filter_name)
                        for what in found:
                            found[what] += bool(expected[what])
    assert all(found.values()), found  # every answer was met, not only empty ones
