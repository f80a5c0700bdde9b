"""The builder: one MTG scenario from a choice source, its parts drawn in a fixed order (:mod:`.effects`,
:mod:`.abilities`, :mod:`.set_pieces`, :mod:`.script`, :mod:`.narrow`), and :func:`build_scenario`."""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.source import ChoiceSource
from reference_engine.mtg.generator.abilities import Abilities
from reference_engine.mtg.generator.effects import Effects
from reference_engine.mtg.generator.features import (
    OPTION_SHAPES, PROFILE_FEATURES, PROFILE_ONLY_FEATURES, SEARCH_SHAPES, draw_features,
)
from reference_engine.mtg.generator.narrow import NarrowShapes
from reference_engine.mtg.generator.script import Script
from reference_engine.mtg.generator.set_pieces import SetPieces
from reference_engine.mtg.generator.situated import SituatedPieces
from reference_engine.mtg.generator.tour import TourPieces
from reference_engine.mtg.generator.words import VocabularyPieces


class Builder(Effects, Abilities, SetPieces, Script, NarrowShapes, VocabularyPieces, SituatedPieces, TourPieces):
    """One scenario's builder: the features it leaves out (``no``: the profile's ``excluded`` and the swarm's draw),
    and what its parts share while they are drawn."""

    def __init__(self, source: ChoiceSource, edition: str, exclude: frozenset[str] = frozenset(),
                 include: frozenset[str] = frozenset()):
        self.source = source
        self.edition = edition
        self.excluded = exclude
        self.included = include  # search shapes (features.SEARCH_SHAPES), drawn after everything else
        self.no = draw_features(source, exclude)
        if "targets" in self.no:
            self.no |= {"player_targets"}
        self.current: dict[str, Any] | None = None  # the object whose ability is being built (when features are off)
        self.doomed: list[str] = []  # players who may leave the game
        self.objects: list[dict[str, Any]] = []
        self.next_ability = 0
        self.graveyard_ids: list[str] = []  # abilities given by graveyard_ability (G1, G2, ...)
        self.optional_ids: list[str] = []
        self.targeted_ids: list[str] = []
        self.any_object_targets: list[dict[str, Any]] = []
        self.delayed_ids: list[str] = []
        self.gone_player: tuple[str, str, str] | None = None  # (signal, the targeting ability, the one removing)
        # (object, the signal that triggers its ability, the delayed ability's trigger) for abilities creating one
        self.delayed_sites: list[tuple[str, str, dict[str, Any]]] = []
        # without stray_targets: enter/leave abilities targeting a card in a hand, with their objects
        self.strays: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self.made_delayed = False  # whether some ability creates a delayed ability ("scripted_delayed_triggers")
        self.killers: list[tuple[dict[str, Any], dict[str, Any]]] = []  # (the same: creators, their triggers)

    def build(self) -> dict[str, Any]:
        src = self.source
        n = src.pick([2, 3, 3, 4, 4])
        players = [f"P{k + 1}" for k in range(n)]
        active = src.pick(players)
        others = [p for p in players if p != active]
        doomed = [] if "players_leaving" in self.no else [p for p in others if n >= 3 and src.chance(55)][: n - 2]
        self.vulnerable = doomed or players
        self.all_players = players
        self.player_count = n
        self.doomed = doomed
        life = {p: src.integer(1, 3) for p in doomed}
        self.make_objects(players)
        steady = [o for o in self.objects if o["zone"] == "field" and o["owner"] not in doomed]
        chain = self.backbone(steady)
        self.current = None
        handoff = self.handoff(steady, players)
        gone = self.target_destroyed(steady)
        self.target_leaves(doomed, steady)
        mine = self.relative_event(steady, players, doomed, active)
        departure = self.departure(doomed)
        shield = self.shield(players)
        once = self.next_death()
        graveyard = self.graveyard_cards(players)
        self.deaths_by_state()
        lethal = self.lethal_with_a_loss(life)
        watched_ids = self.watchers()
        batching = self.batching(players, watched_ids) if "batching" not in self.no else []
        casting = self.spells(active) if "spells" not in self.no else []
        borrowed = self.borrowed_condition(steady, players)  # issue 22: "you" in an intervening "if"
        for obj in self.objects:
            obj.pop("castable", None)
            if not obj["abilities"]:
                del obj["abilities"]
        steps = self.script_steps(players, active, doomed)
        last = steps[-1]["actions"]
        self.move_each(players, doomed, active, last)
        self.place_first(steps, active, chain, gone, mine, handoff, shield, departure)
        self.place_last(steps, last, active, players, once, graveyard, casting, batching)
        self.vocabulary_pieces(last, active, players, doomed)
        self.situated_pieces(last, active, players, doomed)  # issue 30: drawn last, put first
        steps[0]["actions"][0:0] = [{"by": active, "effect": [action]} for action in borrowed]  # while it is there
        if lethal is not None:
            steps[0]["actions"].insert(0, {"by": active, "effect": [lethal]})
        self.late_turn(steady, steps, active)
        self.finish_script(steps, doomed)
        scenario = self.document(players, active, steps, life, gone)
        self.zone_tour_piece(scenario)  # issue 30 item 2: after every other answer of the document
        if "watcher_chain" in self.included:  # issue 33: a search shape, after every other answer
            self.watcher_chain(scenario)
        return scenario

    def make_objects(self, players: list[str]) -> None:
        """One to three permanents per player, maybe a card in hand; their card types and tokens; their abilities."""
        src = self.source
        for p in players:
            for _ in range(src.count(1, 3)):
                obj: dict[str, Any] = {"id": f"C{len(self.objects) + 1}", "owner": p, "zone": "field"}
                if src.chance(20):
                    obj["toughness"] = 2
                self.objects.append(obj)
            if src.chance(40):
                self.objects.append({"id": f"C{len(self.objects) + 1}", "owner": p, "zone": "hand", "castable": True})
        for obj in self.objects:  # card types (205.2a) and tokens (111.1), read by trigger filters: drawn whether the
            # feature is on or not, so that shrinking can turn it off without shifting the draws that follow
            kind, token = src.pick(["creature", "creature", "creature", "artifact", "enchantment"]), src.chance(20)
            if "filters" not in self.no:
                obj["types"] = [kind]
                if obj["zone"] == "field" and token:
                    obj["token"] = True
        for obj in self.objects:
            obj["abilities"] = [self.ability(obj) for _ in range(src.count(0, 2))]
        self.profile_siblings()

    def document(self, players: list[str], active: str, steps: list[dict[str, Any]], life: dict[str, int],
                 gone: Any) -> dict[str, Any]:
        """The scenario document, with the choices drawn last: the trigger order, optional answers, targets."""
        src = self.source
        for target in self.any_object_targets:  # "target creature" (every object): those the set pieces added too
            target["candidates"] = [o["id"] for o in self.objects]
        ability_ids = [a["id"] for o in self.objects for a in o.get("abilities", ())]
        given = [i for i in ability_ids if i in self.graveyard_ids]  # last, so that the draws stay as without them
        order = src.permutation([i for i in ability_ids if i not in self.graveyard_ids]) + given
        if gone:  # the destroying ability resolves first
            order.remove(gone[2])
            order.insert(order.index(gone[1]), gone[2])
        if self.gone_player:  # the ability making the player leave resolves first
            order.remove(self.gone_player[2])
            order.insert(order.index(self.gone_player[1]), self.gone_player[2])
        choices: dict[str, Any] = {"trigger_order": order}
        optional = {a: src.chance(55) for a in self.optional_ids}
        if optional:
            choices["optional"] = optional
        if self.targeted_ids:
            choices["targets"] = {a: src.permutation([o["id"] for o in self.objects] + players)[:2]
                                  for a in self.targeted_ids}
        scenario: dict[str, Any] = {
            "format": "trigger-conformance/scenario/1",
            "ruleset": "mtg",
            "edition": self.edition,
            "players": players,
            "active_player": active,
            "objects": self.objects,
            "script": steps,
            "choices": choices,
        }
        if life:
            scenario["life"] = life
        return scenario


def build_scenario(source: ChoiceSource, edition: str, profile: dict[str, Any] | None = None) -> dict[str, Any]:
    """A random MTG scenario document (without ``options``), a deterministic function of ``source``'s answers.

    ``profile`` (declared by an engine, see ``Engine.generation_profile``) restricts the scenarios to what
    the engine can play: ``{"exclude": [feature, ...]}`` with features from :data:`PROFILE_FEATURES` (or the finer
    :data:`PROFILE_ONLY_FEATURES`, which the swarm never draws); the swarm
    draws every feature all the same (the stream's layout does not depend on the profile), and an excluded feature
    stays off. ``{"include": [shape, ...]}`` adds search shapes (:data:`~.features.SEARCH_SHAPES`), which no run
    asks for: the editors' search does, for the options of :data:`~.features.OPTION_SHAPES`
    (``build_scenario.option_shapes``). Raises ValueError for an unknown feature or shape.
    """
    exclude = frozenset((profile or {}).get("exclude", ()))
    unknown = exclude - PROFILE_FEATURES - PROFILE_ONLY_FEATURES
    if unknown:
        raise ValueError(f"unknown MTG generation profile features: {sorted(unknown)}")
    include = frozenset((profile or {}).get("include", ()))
    if include - SEARCH_SHAPES:
        raise ValueError(f"unknown MTG search shapes: {sorted(include - SEARCH_SHAPES)}")
    return Builder(source, edition, exclude, include).build()


build_scenario.option_shapes = OPTION_SHAPES  # option -> the search shapes where its readings can differ
