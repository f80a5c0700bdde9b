"""The MTG generator (issue 10, item 2): swarm testing, the coverage goals, profiles that stay excluded, and
shrinking that turns features off.

The coverage test plays the 1,000 scenarios of seed 0 that ``trigger-conformance coverage --ruleset mtg
--max-examples 1000`` plays (the reference engine only, no invariants: a few seconds).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

import pytest

from conformance.running.checking import play
from reference_engine.mtg import generator as mtg
from reference_engine.mtg.generator import PROFILE_FEATURES, SWARM_ORDER, build_scenario, draw_features
from reference_engine.mtg.generator.features import UNSWARMED
from reference_engine.kernel.source import ReplaySource, SeededSource
from conformance.shrinking.shrinker import shrink
from reference_engine.mtg.engines.reference import MtgEngine
from reference_engine.kernel.registry import get_ruleset

RULESET = get_ruleset("mtg")
EDITION = RULESET.default_edition
ENGINE = MtgEngine()


def _walk(effect: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for action in effect:
        yield action
        if isinstance(action.get("ability"), dict):
            yield from _walk(action["ability"]["effect"])


def abilities(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Every ability: printed, and created by effects (delayed and reflexive)."""
    found = [ab for obj in document["objects"] for ab in obj.get("abilities", ())]
    for ability in list(found):
        found += [a["ability"] for a in _walk(ability["effect"]) if isinstance(a.get("ability"), dict)]
    return found


def actions(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Every action: scripted and in every ability's effect."""
    found = [a for step in document["script"] for act in step["actions"] for a in _walk(act["effect"])]
    return found + [a for ab in abilities(document) for a in ab["effect"]]


def script_actions(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for step in document["script"] for act in step["actions"] for a in act["effect"]]


def uses(document: dict[str, Any]) -> set[str]:
    """The profile features a scenario document shows (read from the document, not from the builder); those that
    leave no mark of their own in a document (other_objects, other_players) are not read."""
    acts, abs_ = actions(document), abilities(document)
    events = {ab["trigger"]["event"] for ab in abs_}
    does = {a["do"] for a in acts}
    shown = set()
    if "signal" in does or "signal" in events:
        shown.add("signals")
    if "state" in events:
        shown.add("state_triggers")
    if events & {"ability_triggered", "ability_stacked"}:
        shown.add("watchers")
    if events & {"damage", "life", "player_leaves", "dealt_damage"}:
        shown.add("event_triggers")
    if any("target" in ab for ab in abs_) or "move_target" in does:
        shown.add("targets")
    if "create_delayed" in does:
        shown.add("delayed")
    if "reflexive" in does:
        shown.add("reflexive")
    if "move_together" in does:
        shown.add("move_together")
    if any(a.get("prevented") for a in acts):
        shown.add("prevented")
    if "gain_control" in does:
        shown.add("gain_control")
    if "concede" in does or document.get("life"):
        shown.add("players_leaving")
    if any("dies_when" in o for o in document["objects"]):
        shown.add("dies_when")
    if any(a["do"] == "damage" for a in script_actions(document)):
        shown.add("script_damage")
    if any(not ab["effect"] for ab in abs_):
        shown.add("empty_effects")
    if any(a["do"] in ("move", "move_together") and a.get("from") == "field" and a["to"] == "exile" for a in acts):
        shown.add("exile")
    if any(ab.get("intervening_if", {}).get("test") in ("in_zone", "not_in_zone") for ab in abs_):
        shown.add("zone_conditions")
    if any(o["zone"] == "graveyard" for o in document["objects"]):
        shown.add("graveyard_triggers")
    if any("players" in ab.get("target", {}) for ab in abs_):
        shown.add("player_targets")
    if any(k in ab["trigger"] for ab in abs_ for k in ("controller", "player", "type", "nontoken", "change")) or \
            any("types" in o or ("token" in o and o["zone"] != "uncreated") for o in document["objects"]):
        shown.add("filters")
    if "zone_change" in events or "move_each" in does:
        shown.add("zone_changes")
    if any(ab["trigger"].get("batch") or ab.get("once_each_turn") for ab in abs_) or "resolved" in events or any(
            "additional_triggers" in o for o in document["objects"]):
        shown.add("batching")
    if any("turn" in step for step in document["script"]) or any(
            a.get("duration") in ("next_turn", "until_your_next_turn") for a in acts):
        shown.add("turns")
    if any("spell" in o for o in document["objects"]) or "cast" in does:
        shown.add("spells")
    if any("owner" in ab["trigger"] for ab in abs_):
        shown.add("ownership")
    if any(a.get("that_many") for a in acts):
        shown.add("event_amounts")
    if any(ab.get("triggers_once_each_turn") for ab in abs_):
        shown.add("triggers_once")
    if any(a.get("do") == "create_delayed" for o in document["objects"] for a in (o.get("spell") or {}).get("effect", ())):
        shown.add("spell_delayed")
    if "dealt_damage" in events:
        shown.add("dealt_damage")
    if any(a.get("do") == "damage_together" and not a.get("combat") for a in acts):
        shown.add("damage_occurrences")
    if any(a.get("combat") for a in acts) or any("combat" in ab["trigger"] for ab in abs_):
        shown.add("combat_damage")
    if any(a.get("that_player") for a in acts):
        shown.add("that_player")
    if "create_token" in does:
        shown.add("tokens")
    if "activate" in does:
        shown.add("activated")
    if any(o["id"].startswith("W") and o["id"][1:].isdigit() for o in document["objects"]):  # its watcher
        shown.add("zone_tour")
    return shown


READABLE = PROFILE_FEATURES - {"other_objects", "other_players"}


# -- Coverage goals (the goals themselves are checked for every ruleset in tests/test_coverage.py) -------------


def test_the_situations_issue_10_lists_as_never_built_are_listed():
    names = {s.name for s in RULESET.situations}
    assert {"from-graveyard", "intervening-on-delayed", "intervening-on-state", "intervening-on-reflexive",
            "enters-mid-resolution", "triggers-in-several-steps", "delayed-other-controller",
            "delayed-duration-ends"} <= names


# -- Swarm testing ----------------------------------------------------------------------------------------------


def test_each_scenario_draws_its_own_subset_of_features():
    shown = [frozenset(uses(build_scenario(SeededSource(seed), EDITION))) for seed in range(300)]
    per_feature = Counter(f for s in shown for f in s)
    for feature in READABLE:
        assert 0 < per_feature[feature] < 300, (feature, per_feature[feature])
    assert len(set(shown)) >= 100  # many different mixes, not one fixed mix
    drawn = Counter(f for seed in range(300) for f in PROFILE_FEATURES - draw_features(SeededSource(seed)))
    assert all(30 < drawn[f] < 290 for f in PROFILE_FEATURES - UNSWARMED), drawn
    assert all(drawn[f] == 300 for f in UNSWARMED)  # never drawn off: their set pieces draw their own odds


def test_the_feature_draws_come_first_and_zero_turns_a_feature_off():
    assert draw_features(ReplaySource([])) == PROFILE_FEATURES - UNSWARMED  # all zeros: every swarmed feature off
    assert draw_features(ReplaySource([99] * len(SWARM_ORDER))) == frozenset()  # all highest: every feature on
    for n, feature in enumerate(SWARM_ORDER):
        alone = [0] * len(SWARM_ORDER)
        alone[n] = 99
        assert draw_features(ReplaySource(alone)) == PROFILE_FEATURES - UNSWARMED - {feature}
    # In a whole build, the first answers are those draws: zeroing one turns its feature off, and only it.
    for seed in range(20):
        log = bytearray(_log_of(seed))
        on = PROFILE_FEATURES - UNSWARMED - mtg.Builder(ReplaySource(log), EDITION).no
        for feature in on:
            patched = bytearray(log)
            patched[SWARM_ORDER.index(feature)] = 0
            implied = {"targets": {"player_targets"}}.get(feature, set())  # off with it
            assert PROFILE_FEATURES - UNSWARMED - mtg.Builder(ReplaySource(patched), EDITION).no == \
                on - {feature} - implied


def _log_of(seed: int) -> bytes:
    source = SeededSource(seed)
    build_scenario(source, EDITION)
    return source.log


def test_the_simplest_scenario_has_every_feature_off():
    simplest = build_scenario(ReplaySource([]), EDITION)
    assert uses(simplest) == set()
    scenario = {**simplest, "options": RULESET.resolve_options({})}
    assert play(ENGINE, scenario).status == "trace"


def test_shrinking_turns_the_features_a_failure_does_not_need_off():
    def fails(document: dict[str, Any]) -> bool:  # "a reflexive ability triggers on the reference engine"
        scenario = {**document, "options": RULESET.resolve_options({})}
        trace = play(ENGINE, scenario).trace
        reflexive = {e["id"] for e in trace["entries"] if e["kind"] == "delayed_create" and e.get("reflexive")}
        return any(e["kind"] == "trigger" and e.get("delayed") in reflexive for e in trace["entries"])

    # The zone tour is not swarmed: its parts follow the profile, each with its own odds (shrinking turns those off),
    # so a reflexive ability of the tour's own is left out here, where the swarm's draws are shrunk. So is the combat
    # damage set piece: its "noncombat damage" watcher hears the whole game's damage, and the search below then
    # settles on another seed's scenario, whose reflexive trigger needs more of the swarm's features (and the "that
    # player" set piece, unswarmed too).
    def swarmed(source, edition):
        return build_scenario(source, edition, profile={"exclude": ["zone_tour", "combat_damage", "that_player"]})

    log = next(log for log in map(_log_of, range(200))
               if fails(swarmed(ReplaySource(log), EDITION))
               and len(PROFILE_FEATURES - mtg.Builder(ReplaySource(log), EDITION).no) >= 12)
    shrunk = shrink(swarmed, EDITION, log, fails, b"test-mtg-generation", seconds=60)
    assert fails(shrunk.document)
    on = PROFILE_FEATURES - {"zone_tour"} - mtg.Builder(ReplaySource(shrunk.log), EDITION).no
    assert "reflexive" in on and len(on) <= 6, on  # from 12 or more (typically 3 to 6 left, by the stream)
    # what the shrunk document shows is among the features left on (which ones the shrinker keeps besides
    # "reflexive" depends on the seed's stream: e.g. signals and targets, or event_triggers and players_leaving)
    assert "reflexive" in uses(shrunk.document) <= on


# -- Profiles ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("feature", sorted(READABLE))
def test_a_profile_keeps_an_excluded_feature_out_of_every_scenario(feature):
    implied = {"exile": {"graveyard_triggers"}, "targets": {"player_targets"},
               "event_triggers": {"event_amounts"}}.get(feature, set())
    profile = {"exclude": [feature]}
    for seed in range(200):
        source = SeededSource(seed)
        document = build_scenario(source, EDITION, profile=profile)
        assert not uses(document) & ({feature} | implied), (seed, feature)
        # the swarm still draws the feature's answer (the stream's layout does not depend on the profile), and an
        # "on" answer does not bring it back
        assert feature in mtg.Builder(ReplaySource([99] * len(SWARM_ORDER)), EDITION, frozenset({feature})).no


def test_the_phase_profile_excludes_what_it_names_whatever_the_swarm_draws():
    exclude = ["signals", "state_triggers", "watchers", "event_triggers", "targets", "delayed", "reflexive",
               "move_together", "prevented", "gain_control", "players_leaving", "dies_when", "script_damage",
               "empty_effects", "other_objects", "other_players", "exile", "zone_conditions", "filters", "zone_changes",
               "batching", "turns", "spells", "ownership", "event_amounts", "triggers_once", "spell_delayed", "dealt_damage", "damage_occurrences",
               "tokens", "zone_tour"]
    for seed in range(200):
        document = build_scenario(SeededSource(seed), EDITION, profile={"exclude": exclude})
        assert uses(document) == set(), seed
        scenario = {**document, "options": RULESET.resolve_options({})}
        assert play(ENGINE, scenario).status == "trace"


def test_an_unknown_profile_feature_is_refused():
    with pytest.raises(ValueError, match="unknown MTG generation profile features"):
        build_scenario(SeededSource(0), EDITION, profile={"exclude": ["signal"]})


def test_the_generator_names_no_engine():
    """What an engine cannot play is stated by its profile (issue 19 item 5): the generator's features are named for
    what a scenario contains, and no module of it names phase.rs or an adapter."""
    from pathlib import Path

    folder = Path(mtg.__file__).parent
    for module in sorted(folder.glob("*.py")):
        text = module.read_text().lower()
        assert not any(word in text for word in ("phase.rs", "mtg.phase", "mtg/phase", "adapter")), module.name


# -- Profiles only: the shapes phase.rs's adapter can see (PROFILE_ONLY_FEATURES; docs/engines/phase.md) ------------


def _phase_documents(count: int = 150) -> Iterator[dict[str, Any]]:
    from reference_engine.mtg.phase import PROFILE

    for seed in range(count):
        yield build_scenario(SeededSource(seed), EDITION, profile=PROFILE)


def _abilities(document: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for obj in document["objects"]:
        for ability in obj.get("abilities", ()):
            yield obj, ability


def _script(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for step in document["script"] for action in step["actions"] for e in action["effect"]]


def test_phase_profile_stray_targets_trigger_once_and_a_target_with_no_candidate_comes_with_a_sibling():
    """stray_targets: a targeted enter/leave ability triggers on its own source's zone change; a card in a hand as its
    only candidate (no legal target, 603.3d) comes with no intervening "if", not optional, beside a second ability of
    its source on the same trigger (so phase asks for their order and shows it); a one-permanent target is one that
    nothing else in the scenario moves or damages, where there is one."""
    seen = Counter()
    for document in _phase_documents():
        zone = {o["id"]: o["zone"] for o in document["objects"]}
        named = {e.get("object") for _, a in _abilities(document) for e in a["effect"]} | {
            e.get("object") for e in _script(document) if e["do"] != "gain_control"}
        for obj, ability in _abilities(document):
            candidates = (ability.get("target") or {}).get("candidates")
            if not candidates:
                continue
            assert ability["trigger"]["subject"] == "self", ability
            if len(candidates) == 1 and zone[candidates[0]] == "hand":
                seen["no legal target"] += 1
                assert "intervening_if" not in ability and not ability.get("optional"), ability
                assert any(other is not ability and other["trigger"] == ability["trigger"]
                           for other in obj["abilities"]), obj
            elif len(candidates) == 1:
                seen["one permanent"] += 1
                seen["sheltered"] += candidates[0] not in named
    assert seen["no legal target"] >= 3 and seen["one permanent"] >= 5, seen
    assert seen["sheltered"] >= seen["one permanent"] * 0.4, seen  # (where a free permanent is left)


def test_phase_profile_delayed_abilities_are_created_once_and_see_no_scripted_death():
    """scripted_delayed_triggers and repeated_delayed_creations: a delayed ability watches deaths only, its creator
    triggers on its own source's zone change (at most once) beside a second ability of that source destroying
    another permanent, and the script of such a scenario exiles what it removes (debug moves fire no delayed
    ability)."""
    made = 0
    for document in _phase_documents():
        creators = [(obj, a) for obj, a in _abilities(document)
                    if any(e["do"] == "create_delayed" for e in a["effect"])]
        for obj, ability in creators:
            made += 1
            assert ability["trigger"]["subject"] == "self", ability
            delayed = next(e for e in ability["effect"] if e["do"] == "create_delayed")["ability"]
            assert delayed["trigger"].get("to") == "graveyard", delayed
            assert any(other["trigger"] == ability["trigger"] and other["effect"][0]["do"] == "move"
                       and other["effect"][0]["to"] == "graveyard" for other in obj["abilities"] if other is not ability)
        if creators:
            assert all(e["to"] == "exile" for e in _script(document) if e["do"] == "move" and e["from"] == "field")
    assert made >= 10, made


def test_phase_profile_optional_abilities_and_reflexive_ones_read_as_phase_words_them():
    """optional_for_others: an optional ability never begins with another player's hand or life;
    reflexive_anywhere: a reflexive ability never closes an optional ability, and watches an object no earlier
    instruction of its effect names."""
    owners = {}
    reflexive = 0
    for document in _phase_documents():
        owners = {o["id"]: o["owner"] for o in document["objects"]}
        for obj, ability in _abilities(document):
            first = ability["effect"][0]
            if ability.get("optional"):
                assert not (first["do"] == "move" and first["from"] == "hand" and owners[first["object"]] != obj["owner"])
                assert not (first["do"] == "life" and first.get("player", obj["owner"]) != obj["owner"])
                assert ability["effect"][-1]["do"] != "reflexive"
            if ability["effect"][-1]["do"] == "reflexive":
                reflexive += 1
                victim = ability["effect"][-2]["object"]
                assert victim not in {e.get("object") for e in ability["effect"][:-2]}, ability
    assert reflexive >= 10, reflexive


def test_phase_profile_control_changes_give_permanents_to_players_who_stay():
    """hand_control_changes: a scripted control change is of a permanent, to a player who is not doomed to leave
    (the doomed have a starting life total), mostly of permanents whose text names no player through "you"."""
    changes = 0
    for document in _phase_documents():
        zone = {o["id"]: o["zone"] for o in document["objects"]}
        for effect in _script(document):
            if effect["do"] == "gain_control":
                changes += 1
                assert zone[effect["object"]] == "field", effect
                assert effect["player"] not in (document.get("life") or {}), effect
    assert changes >= 10, changes
