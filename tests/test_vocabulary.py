"""Each ruleset's vocabulary (issue 9, item 5): a scenario that uses another ruleset's words is rejected with the
JSON path at fault (exit 2), never silently ignored by the engine and the judge alike."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from conformance.commands import cli
from reference_engine.kernel.errors import ScenarioError
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import SeededSource
from conformance.documents.scenarios import prepare_scenario
from conformance.documents.fixture_files import bundled_fixtures
from reference_engine.kernel.registry import RULESETS, get_ruleset, loaded

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_bundled_fixture_speaks_its_own_ruleset(name):
    """Every fixture a unit ships (from its manifest's fixtures folder), of every installed unit."""
    ruleset = get_ruleset(name)
    fixtures = bundled_fixtures(name)
    assert fixtures or loaded(name).manifest.fixtures is None
    for fixture in fixtures:
        assert ruleset.vocabulary.foreign_words(fixture.document["scenario"]) == [], fixture.id


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_generated_scenario_speaks_its_own_ruleset(name):
    ruleset = get_ruleset(name)
    build = builder_for(name)
    for n in range(400):
        document = build(SeededSource(n), ruleset.default_edition)
        assert ruleset.vocabulary.foreign_words(document) == [], (n, document)


def _momon_scenario():
    return json.loads((ROOT / "fixtures" / "momon-wonder" / "mw-once-per-event.json").read_text("utf-8"))["scenario"]


# (ruleset whose fixture is edited, how, the JSON path the error must name)
def _mtg_target_in_momon(s):
    s["objects"][0]["abilities"][0]["target"] = {"candidates": [s["objects"][0]["id"]]}
    return "$.objects[0].abilities[0].target"


def _redemption_negate_in_momon(s):
    s["script"][0]["actions"][0]["effect"].append({"do": "negate", "object": s["objects"][0]["id"]})
    return f"$.script[0].actions[0].effect[{len(s['script'][0]['actions'][0]['effect']) - 1}].do"


def _mtg_life_in_momon(s):
    s["life"] = {p: 20 for p in s["players"]}
    return "$.life"


def _set_aside_in_momon(s):
    s["objects"][0]["zone"] = "set_aside"
    return "$.objects[0].zone"


@pytest.mark.parametrize("edit", [_mtg_target_in_momon, _redemption_negate_in_momon, _mtg_life_in_momon,
                                  _set_aside_in_momon], ids=lambda f: f.__name__)
def test_another_rulesets_word_is_rejected_with_its_path(edit):
    scenario = copy.deepcopy(_momon_scenario())
    path = edit(scenario)
    with pytest.raises(ScenarioError) as raised:
        prepare_scenario(scenario, "edited.json")
    assert f"at {path}:" in str(raised.value)


def test_mtg_words_in_a_redemption_scenario_are_rejected():
    document = json.loads(next((ROOT / "fixtures" / "redemption").glob("*.json")).read_text("utf-8"))["scenario"]
    document["objects"][0]["toughness"] = 3
    document["choices"] = {**document.get("choices", {}), "targets": {}}
    with pytest.raises(ScenarioError) as raised:
        prepare_scenario(document, "edited.json")
    assert "at $.objects[0].toughness:" in str(raised.value) and "at $.choices.targets:" in str(raised.value)


def test_validate_exits_2_naming_the_path(tmp_path, capsys):
    scenario = copy.deepcopy(_momon_scenario())
    path = _mtg_target_in_momon(scenario)
    file = tmp_path / "scenario.json"
    file.write_text(json.dumps(scenario), "utf-8")
    assert cli.main(["validate", str(file), "--as", "scenario"]) == 2
    assert path in capsys.readouterr().err
