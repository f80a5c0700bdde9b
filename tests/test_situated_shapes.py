"""Issue 30 item 3: the shapes the MTG stream never built (reference_engine/mtg/generator/situated.py) are built, and
the faulty engine an author would plausibly write for each (reference_engine/mtg/engines/faulty_situated.py) is
caught on its rule key on 20 of 20 seeds at 200 examples (one seed in the quick suite, the rest marked slow)."""

from __future__ import annotations

import pytest

from conformance.commands.selftest import catch_rate
from reference_engine.kernel.source import SeededSource
from reference_engine.mtg.generator import build_scenario

SHAPES = ["mtg-deaths-heard-on-the-battlefield-only", "mtg-own-death-seen-from-the-graveyard",
          "mtg-hidden-zone-leaves-unheard", "mtg-each-card-leaving-a-graveyard", "mtg-once-taken-as-resolution-ends",
          "mtg-target-check-stands-for-if",
          # something happening as a spell is cast or an ability activated (a cost paid, a death as a cost), what it
          # triggers waiting below as the spell or ability goes on the stack (601.2i, 602.2a, 603.3)
          "mtg-cast-triggers-below-the-spell", "mtg-cost-triggers-below",
          # the rare shapes: a leaves-the-battlefield ability looking back to the moment before its event (603.10a),
          # an intervening-if ability that also targets (above), an object on the battlefield only briefly
          "mtg-no-look-back", "mtg-look-back-to-the-effects-start"]
EXAMPLES = 200


def _caught(name: str, seed: int) -> None:
    """Caught by its rule key in the stream ``run --seed SEED`` explores (no shrinking: catching is the claim;
    shrinking each faulty engine's failure is tests/test_mutant_shrinking.py's)."""
    rate = catch_rate(name, [seed], EXAMPLES)
    assert rate["caught"] == 1, (name, seed, rate)


@pytest.mark.parametrize("name", SHAPES)
def test_the_shapes_faulty_engine_is_caught_on_seed_0(name):
    _caught(name, 0)


@pytest.mark.slow
@pytest.mark.nightly
@pytest.mark.parametrize("name", SHAPES)
def test_the_shapes_faulty_engine_is_caught_on_20_of_20_seeds(name):
    for seed in range(1, 20):
        _caught(name, seed)


def _abilities(scenario):
    return [(obj, a) for obj in scenario["objects"] for a in obj.get("abilities", ())]


SHAPE_TESTS = {
    "a card in a graveyard watching a creature die": lambda s: any(
        obj["zone"] == "graveyard" and a.get("active_in") == ["graveyard"] and a["trigger"]["event"] == "leave"
        and "subject" not in a["trigger"] for obj, a in _abilities(s)),
    "a permanent's graveyard-only ability watching its own card die": lambda s: any(
        obj["zone"] == "field" and a.get("active_in") == ["graveyard"] and a["trigger"].get("subject") == "self"
        for obj, a in _abilities(s)),
    "a discard, watched": lambda s: any(a["trigger"] == {"event": "move", "from": "hand", "to": "graveyard"}
                                        for _, a in _abilities(s)),
    "one or more cards leaving a graveyard, watched": lambda s: any(
        a["trigger"].get("from") == "graveyard" and a["trigger"].get("batch") for _, a in _abilities(s)),
    "a do-once-each-turn ability whose own effect causes its event again": lambda s: any(
        a.get("once_each_turn") and a["trigger"] == {"event": "leave", "to": "graveyard"}
        and a["effect"][0].get("to") == "graveyard" for _, a in _abilities(s)),
    "an intervening-if ability that also targets": lambda s: any(
        a.get("intervening_if") and a.get("target") for _, a in _abilities(s)),
    "a spell cast, watched as it is cast": lambda s: _scripted(s, "cast") and any(
        a["trigger"]["event"] == "cast" for _, a in _abilities(s)),
    "an ability activated with a death as its cost, the death watched": lambda s: _scripted(s, "activate") and any(
        part["pay"] == "sacrifice" for obj in s["objects"] for spec in obj.get("activated", ())
        for part in spec["cost"]) and any(a["trigger"].get("to") == "graveyard" for _, a in _abilities(s)),
    "a leaves-the-battlefield ability of a permanent, about itself": lambda s: any(
        obj["zone"] == "field" and a["trigger"]["event"] == "leave" and a["trigger"].get("subject") == "self"
        and "active_in" not in a for obj, a in _abilities(s)),
    "an object on the battlefield only briefly, within one effect, its leaving watched": lambda s: bool(
        _brief(s)) and any(a["trigger"]["event"] in ("leave", "move") for _, a in _abilities(s)),
}


def _instructions(scenario):
    """Every list of instructions of ``scenario``: the scripted effects, then the abilities' effects."""
    return [a["effect"] for step in scenario["script"] for a in step["actions"]] + [
        a["effect"] for _, a in _abilities(scenario)]


def _scripted(scenario, do: str) -> bool:
    return any(i["do"] == do for effect in _instructions(scenario)[:sum(
        len(step["actions"]) for step in scenario["script"])] for i in effect)


def _brief(scenario) -> set[str]:
    """The objects one effect brings onto the battlefield (created, or moved there) and then takes off it."""
    brief = set()
    for effect in _instructions(scenario):
        arrived = set()
        for i in effect:
            moved = i.get("objects") or ([i["object"]] if "object" in i else [])
            if i["do"] == "create_token" or (i["do"] in ("move", "move_together") and i.get("to") == "field"):
                arrived.update(moved)
            elif i["do"] in ("move", "move_together") and i.get("from", "field") == "field":
                brief.update(arrived & set(moved))
    return brief


@pytest.mark.parametrize("shape", sorted(SHAPE_TESTS))
def test_each_shape_is_built_in_one_scenario_of_50_at_least(shape):
    built = sum(SHAPE_TESTS[shape](build_scenario(SeededSource(seed), "2026-02-27")) for seed in range(50))
    assert built >= 1


@pytest.mark.parametrize("name", ["momon-wonder", "redemption"])
def test_momon_wonder_and_redemption_put_cards_into_play_in_their_streams(name):
    from conformance.running.coverage import measure
    from conformance.running.runner import RunConfig
    from conformance.generation.stream import explorable_options
    from reference_engine.kernel.registry import derived, get_ruleset, reference_engine_for
    from reference_engine.kernel.derived import derived_situations

    ruleset = get_ruleset(name)
    wanted = tuple(s for s in derived_situations(derived(name))
                   if s.name in ("event:enter", "event-watcher:enter/field", "zone:field"))
    config = RunConfig(ruleset, ruleset.default_edition, ruleset.resolve_options({}), max_examples=50, seed=0,
                       explored_options=explorable_options(ruleset, {}))
    found = measure(reference_engine_for(name), config, wanted)
    assert len(wanted) == 3 and all(found.situations[s.name] >= 1 for s in wanted), found.situations


def test_the_brief_presence_shapes_faulty_engine_misses_a_token_dying_in_the_effect_that_created_it():
    """The rare shape "an object on the battlefield only briefly, seen by look-back": a token created and put into a
    graveyard by one effect; its "when this dies" looks back to the game just before it died (603.10a), where it
    was on the battlefield. mtg-look-back-to-the-effects-start looks back to the effect's start, where the token
    did not exist yet: mtg.look-back says so; the reference engine passes."""
    from conformance.running.audit import mutant_config
    from conformance.running.concluding import _fails
    from reference_engine.kernel.registry import MUTANTS, get_ruleset, reference_engine_for

    token = {"id": "Z1", "owner": "P1", "zone": "uncreated", "token": True, "abilities": [
        {"id": "A1", "trigger": {"event": "leave", "subject": "self", "to": "graveyard"}, "effect": []}]}
    effect = [{"do": "create_token", "objects": ["Z1"]}, {"do": "move", "object": "Z1", "from": "field",
                                                          "to": "graveyard"}]
    doc = {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27", "players": ["P1"],
           "active_player": "P1", "objects": [token], "script": [{"step": "upkeep", "actions": [
               {"by": "P1", "effect": effect}]}]}
    assert _brief(doc) == {"Z1"}
    inv = get_ruleset("mtg").invariant("mtg.look-back")
    name = "mtg-look-back-to-the-effects-start"
    reference = reference_engine_for("mtg")
    assert _fails(MUTANTS[name].factory(), mutant_config(name), inv, reference)(doc)
    assert not _fails(reference_engine_for("mtg"), mutant_config(name), inv, reference)(doc)
