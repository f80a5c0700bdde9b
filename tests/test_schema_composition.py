"""Each ruleset's words live in its own folder (issue 19, item 1): the scenario and trace schemas are a ruleset-neutral
kernel part (reference_engine/kernel/schema/) composed with each unit's fragment (reference_engine/<ruleset>/schema/).
The published schemas/scenario.schema.json and schemas/trace.schema.json are that composition for the bundled units,
written by this module, never by hand: ``.venv/bin/python tests/test_schema_composition.py`` rewrites them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.documents.json_io import load_schema, problems  # noqa: E402
from reference_engine.kernel.schemas import KINDS, bundled, compose, composed_schema, dumps, kernel_schema  # noqa: E402
from reference_engine.kernel.unit import UnitError, units  # noqa: E402


def published(kind: str) -> Path:
    return ROOT / "schemas" / f"{kind}.schema.json"


def write_published() -> None:
    for kind in KINDS:
        published(kind).write_text(dumps(composed_schema(kind, bundled())), "utf-8")


@pytest.mark.parametrize("kind", KINDS)
def test_the_published_schema_is_the_composition_of_the_bundled_units(kind):
    assert published(kind).read_text("utf-8") == dumps(composed_schema(kind, bundled())), (
        f"schemas/{kind}.schema.json is written from reference_engine/kernel/schema/{kind}.json and each bundled "
        f"unit's schema/{kind}.json: edit those, then run `.venv/bin/python tests/test_schema_composition.py`")


@pytest.mark.parametrize("kind", KINDS)
def test_documents_are_validated_with_the_composed_schema_of_the_installed_units(kind):
    assert load_schema(kind) is composed_schema(kind)  # composed once, then cached
    assert load_schema(kind) == composed_schema(kind, tuple(units()))  # every installed unit, in listing order
    if tuple(units()) == bundled():  # the test venv: the bundled units only, so the published schema
        assert load_schema(kind) == json.loads(published(kind).read_text("utf-8"))


@pytest.mark.parametrize("kind", KINDS)
def test_the_kernel_part_and_the_composition_are_draft_2020_12(kind):
    for schema in (kernel_schema(kind), composed_schema(kind)):
        Draft202012Validator.check_schema(schema)
        jsonschema_rs.validator_for(schema)  # every $ref of the part resolves within it


def test_every_ruleset_word_lives_in_its_own_folder():
    kernel = kernel_schema("scenario")
    actions = {branch["properties"]["do"]["const"] for branch in kernel["$defs"]["action"]["oneOf"]}
    assert {"summon", "negate", "damage"}.isdisjoint(actions)
    assert {"summon", "play", "damage"}.isdisjoint(kernel["$defs"]["event_type"]["enum"])
    assert {"package_phase", "activation_begin", "stack_push"}.isdisjoint(kernel_schema("trace")["$defs"])
    for ruleset, word in (("momon_wonder", "summon"), ("redemption", "negate"), ("mtg", "damage")):
        fragment = json.loads((ROOT / "reference_engine" / ruleset / "schema" / "scenario.json").read_text("utf-8"))
        assert word in {branch["properties"]["do"]["const"] for branch in fragment["$defs"]["action"]["oneOf"]}


def test_a_ruleset_word_is_rejected_when_its_unit_is_not_installed():
    scenario = {"format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder", "edition": "1.0.0",
                "players": ["P1"], "active_player": "P1", "objects": [],
                "script": [{"step": "main", "actions": [{"by": "P1", "effect": [{"do": "negate", "object": "X"}]}]}]}
    assert problems(scenario, "scenario") == []
    without_redemption = composed_schema("scenario", ("momon-wonder", "mtg"))
    assert not jsonschema_rs.validator_for(without_redemption).is_valid(scenario)


def test_composition_extends_open_points_and_joins_descriptions():
    kernel = {"$defs": {"zone": {"enum": ["field"], "description": "Zones."},
                        "action": {"oneOf": [{"properties": {"do": {"const": "move"}}}]}}}
    fragment = {"$defs": {"zone": {"enum": ["field", "crypt"], "description": "crypt is the toy's."},
                          "action": {"oneOf": [{"properties": {"do": {"const": "bury"}}}]}}}
    composed = compose(kernel, [("toy", fragment)])
    assert composed["$defs"]["zone"] == {"enum": ["field", "crypt"], "description": "Zones. crypt is the toy's."}
    assert [b["properties"]["do"]["const"] for b in composed["$defs"]["action"]["oneOf"]] == ["move", "bury"]
    assert kernel["$defs"]["zone"]["enum"] == ["field"]  # the arguments are not changed


@pytest.mark.parametrize("fragment, message", [
    ({"$defs": {"id": {"maxLength": 8}}}, "'toy': its schema fragment changes /$defs/id/maxLength (64 -> 8)"),
    ({"required": ["toy"]}, "'toy': its schema fragment extends /required"),
    ({"$defs": {"action": {"oneOf": [{"properties": {"do": {"const": "move"}, "x": {}}}]}}},
     "ruleset unit 'toy': its schema fragment defines do 'move' of /$defs/action/oneOf differently from the kernel"),
    ([], "'toy': its schema fragment is not a JSON object"),
])
def test_a_fragment_that_conflicts_with_the_kernel_is_rejected(fragment, message):
    kernel = {"required": ["format"], "$defs": {"id": {"type": "string", "maxLength": 64},
                                                "action": {"oneOf": [{"properties": {"do": {"const": "move"}}}]}}}
    with pytest.raises(UnitError) as caught:
        compose(kernel, [("toy", fragment)])
    assert message in str(caught.value)


if __name__ == "__main__":
    write_published()
