"""The MTG readings named as options (reference_engine/rulesets/mtg/options.py) where CR 603 leaves the reading open:
the reference engine plays each value, and the judge, reading the scenario's options, accepts that value's trace and
rejects the trace of every other value. Each option has a scenario (a bundled fixture, played under each value)
whose traces differ between all its values, so the judge is shown to catch an engine following the wrong reading
in both directions."""

from __future__ import annotations

import copy
import json

import pytest

from mtg_support import FIXTURES, play, violations
from conformance.scenarios import prepare_scenario
from reference_engine.rulesets.mtg import MTG

# option -> (fixture whose scenario tells the values apart, {value: the rule keys that catch another value's trace})
CASES = {
    "leaves_intervening_if": ("mtg-option-603-10-leaves-intervening-if-after-event",
                              {"look-back": {"mtg.look-back", "mtg.intervening-if"},
                               "after-event": {"mtg.look-back", "mtg.intervening-if"}}),
    "once_each_turn_taken": ("mtg-option-603-2h-once-each-turn-when-performed",
                             {v: {"mtg.triggers-when-satisfied"}
                              for v in ("unless-declined", "on-resolution", "when-performed")}),
}


def test_every_mtg_option_has_a_case_naming_each_value():
    listed = {o.name: set(o.values) for o in MTG.options}
    assert {name for name in listed if name in CASES} == set(CASES)
    for name, (_, by_value) in CASES.items():
        assert set(by_value) == listed[name]


def under(fixture_id: str, option: str, value: str) -> dict:
    document = json.loads((FIXTURES / f"{fixture_id}.json").read_text("utf-8"))["scenario"]
    document = copy.deepcopy(document)
    document["options"] = {**document.get("options", {}), option: value}
    return prepare_scenario(document, fixture_id)[1]


PAIRS = [(option, value, other) for option, (_, by_value) in CASES.items() for value in by_value
         for other in by_value if other != value]


@pytest.mark.parametrize("option,value,other", PAIRS, ids=[f"{o}={v}-judges-{w}" for o, v, w in PAIRS])
def test_the_judge_accepts_its_reading_and_rejects_the_other(option, value, other):
    fixture_id, by_value = CASES[option]
    judged = under(fixture_id, option, value)
    own = play(judged)
    assert violations(judged, own) == {}
    foreign = play(under(fixture_id, option, other))
    assert foreign["entries"] != own["entries"], "the scenario must tell the two readings apart"
    found = violations(judged, foreign)
    assert found, f"the judge under {option}={value} accepted the trace of {other}"
    assert set(found) <= by_value[value], found
