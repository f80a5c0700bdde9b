"""The zone tour of issue 30 item 2 (reference_engine/common/zone_tour.py) in MTG, drawn after every other answer of a
scenario (so the stream of the rest is as without it), with what MTG's vocabulary adds around it:

* the card may start as a spell in a hand (cast: onto the stack, then onto the battlefield as a permanent spell
  resolves, or countered by the watcher's "whenever that card is cast, counter it") or as a token not yet created
  (``uncreated``, then created), so that objects leave the stack and ``uncreated`` too;
* the watcher's abilities may carry an intervening 'if' of any of MTG's tests (a zone, a life total, an empty zone),
  and its "whenever that card enters" ability creates a delayed "when it leaves" of a drawn duration;
* a permanent given to another player first (a control change, watched; its triggers are controlled by a player who
  does not own it), which watches the watcher's abilities triggering and being put on the stack (603.3b's second
  pass) and players leaving the game, and deals itself prevented damage ("whenever this deals damage": 603.2g,
  nothing triggers on it); a creature dealt lethal damage by the script, another destroyed as the card enters with
  "when you do, ..." (603.12), and a state trigger exiling the card from a graveyard (603.8).

Every effect does nothing (or gains 1 life where a profile leaves empty effects out), so nothing cascades, and
every move is scripted, so the scenario still terminates."""

from __future__ import annotations

from typing import Any

from reference_engine.common.zone_tour import zone_tour
from reference_engine.kernel.derived import tour_words
from reference_engine.mtg.judge.vocabulary import VOCABULARY

TOUR_CHANCE = 40  # percent
DURATIONS = ("step", "turn", "next_turn", "until_your_next_turn")  # create_delayed's (603.7b)


class TourPieces:
    """The zone tour of a :class:`~reference_engine.mtg.generator.builder.Builder` (a mixin)."""

    def tour_words(self) -> dict[str, tuple[str, ...]]:
        """What the tour takes from MTG's vocabulary, less what the profile excludes."""
        words = tour_words(VOCABULARY)
        if "zone_changes" in self.excluded:  # triggers on zone changes between any two zones
            words["kinds"] = tuple(k for k in words["kinds"] if k in ("enter", "leave"))
        if "exile" in self.excluded:
            words = {part: tuple(z for z in zones if z != "exile") for part, zones in words.items()}
        if {"graveyard_triggers", "exile"} & self.excluded:  # cards in a graveyard watching (implied by "exile")
            words["works_from"] = tuple(z for z in words["works_from"] if z != "graveyard")
        return words

    def answer(self, owner: str) -> list[dict[str, Any]]:
        return [{"do": "life", "player": owner, "amount": 1}] if "empty_effects" in self.excluded else []

    def zone_tour_piece(self, scenario: dict[str, Any]) -> None:
        """Draw the tour and add it to ``scenario`` (in place); see the module docstring."""
        src = self.source
        stayers = [p for p in scenario["players"] if p not in self.doomed]
        variant = "card"
        for name, features, percent in (("spell", {"spells"}, 45), ("token", {"tokens", "event_triggers"}, 50)):
            if src.chance(percent) and variant == "card" and not features & self.excluded:
                variant = name
        words = self.tour_words()
        start = {"spell": "hand", "token": "uncreated"}.get(variant)
        if start is None and "graveyard" not in words["works_from"]:  # no card starts in a graveyard either
            start = src.pick([z for z in words["stops"] if z not in ("graveyard", "field")])
        tour = zone_tour(scenario, src, TOUR_CHANCE, **words, enabled="zone_tour" not in self.excluded,
                         owners=stayers, start=start, names_from=True)  # nothing leaves the game, once out of it
        if tour is None:
            return
        card, watcher, actions = tour["card"], tour["watcher"], tour["actions"]
        for ability in watcher["abilities"]:
            ability["effect"] = self.answer(watcher["owner"])
        self.tour_delayed(card, watcher)
        self.tour_conditions(card, watcher)  # on the abilities watching the card move only, and the delayed ones
        if variant == "spell":
            card["spell"] = {"effect": [], "permanent": True}
            actions[0]["effect"] = [{"do": "cast", "object": card["id"]}]
            actions[0]["by"] = card["owner"]
            if self.tour_cast(card, watcher) and len(actions) > 1:  # countered: into a graveyard, not play
                move = actions[1]["effect"][0]
                move["from"] = "graveyard"
                if move["to"] == "graveyard":
                    move["to"] = "field"
        elif variant == "token":
            card["token"] = True
            actions[0]["effect"] = [{"do": "create_token", "objects": [card["id"]]}]
        self.tour_company(scenario, watcher, stayers, actions)

    def _watch(self, watcher: dict[str, Any], trigger: dict[str, Any], effect: list[dict[str, Any]]) -> None:
        works_from = watcher["abilities"][0]["active_in"]
        watcher["abilities"].append({"id": self.ability_id("WB"), "trigger": trigger, "active_in": list(works_from),
                                     "effect": effect})

    def tour_cast(self, card: dict[str, Any], watcher: dict[str, Any]) -> bool:
        """The spell's cast watched, maybe countered (an object leaving the stack either way); its counter watched.
        Whether it is countered."""
        src = self.source
        countered = "other_objects" not in self.excluded and src.chance(85)
        self._watch(watcher, {"event": "cast", "subject": card["id"]},
                    [{"do": "counter", "object": card["id"]}] if countered else self.answer(watcher["owner"]))
        self._watch(watcher, {"event": "countered", "subject": card["id"]}, self.answer(watcher["owner"]))
        return countered

    def tour_conditions(self, card: dict[str, Any], watcher: dict[str, Any]) -> None:
        """An intervening 'if' on some of the watcher's abilities and the delayed ones they create, of each of MTG's
        tests by turns."""
        src = self.source
        tests = [t for t in sorted(VOCABULARY.condition_tests) if not (
            ("zone_conditions" in self.excluded and "zone" in t)
            or ("other_objects" in self.excluded and t.endswith("in_zone")))]
        if not tests:
            return
        offset = src.integer(0, len(tests) - 1)
        zones = list(self.tour_words()["stops"])
        delayed = [a["ability"] for ability in watcher["abilities"] for a in ability["effect"]
                   if a["do"] == "create_delayed"]
        for n, ability in enumerate(watcher["abilities"] + delayed):
            if not src.chance(85):
                continue
            test = tests[(offset + n) % len(tests)]
            if test.endswith("in_zone"):
                condition = {"test": test, "object": card["id"], "zone": src.pick(zones)}
            elif test == "zone_empty":  # mostly true: few cards start in a library or exile
                condition = {"test": test, "zone": src.pick(["deck", "exile"]), "player": src.pick(["you", card[
                    "owner"]])}
            else:  # mostly true: life totals start at 20
                condition = {"test": test, "player": "you", "value": 20 + src.integer(0, 5) * (
                    1 if test == "life_at_most" else -1)}
            ability["intervening_if"] = condition

    def tour_delayed(self, card: dict[str, Any], watcher: dict[str, Any]) -> None:
        """"Whenever that card enters, whenever it leaves (for each duration, in a drawn order), ..." on the watcher."""
        src = self.source
        if {"delayed", "delayed_anywhere", "repeated_delayed_creations", "scripted_delayed_triggers"} & self.excluded:
            return
        entering = next((a for a in watcher["abilities"] if a["trigger"]["event"] == "enter"), None)
        if entering is None or not src.chance(70):
            return
        durations = [d for d in DURATIONS if "turns" not in self.excluded or d in ("step", "turn")]
        entering["effect"] = entering["effect"] + [{"do": "create_delayed", "duration": duration, "ability": {
            "id": self.ability_id("D"), "trigger": {"event": "leave", "subject": card["id"]},
            "effect": self.answer(watcher["owner"])}} for duration in src.permutation(durations)]

    def tour_company(self, scenario: dict[str, Any], watcher: dict[str, Any], stayers: list[str],
                     actions: list[dict[str, Any]]) -> None:
        """A permanent watching the watcher's abilities trigger and go on the stack, and players leave the game, given
        to another player first (watched by the watcher) and dealing itself prevented damage; then the deaths."""
        src = self.source
        owner = src.pick(stayers)
        company = self.fresh(owner)
        company["abilities"] = []
        if "watchers" not in self.excluded:
            company["abilities"] += [{"id": self.ability_id(), "trigger": {"event": kind, "subject": watcher["id"]},
                                      "effect": self.answer(owner)}
                                     for kind in ("ability_triggered", "ability_stacked")]
        if not {"event_triggers", "players_leaving"} & self.excluded and self.doomed:
            company["abilities"].append({"id": self.ability_id(), "trigger": {"event": "player_leaves"},
                                         "effect": self.answer(owner)})
        first: list[dict[str, Any]] = []
        others = [p for p in stayers if p != owner]
        if others and "gain_control" not in self.excluded and src.chance(70):
            self._watch(watcher, {"event": "control", "subject": company["id"]}, self.answer(watcher["owner"]))
            first.append({"do": "gain_control", "object": company["id"], "player": src.pick(others)})
        if not {"prevented", "event_triggers", "script_damage"} & self.excluded and src.chance(60):
            company["abilities"].append({"id": self.ability_id(), "trigger": {"event": "damage", "subject": "self"},
                                         "effect": self.answer(owner)})  # "whenever this deals damage"
            first.append({"do": "damage", "source": company["id"], "object": company["id"], "amount": 1,
                          "prevented": True})
        first += self.tour_deaths(watcher, company, stayers)
        if not company["abilities"]:
            del company["abilities"]
        order = scenario["choices"]["trigger_order"]
        order += [a["id"] for obj in (company, watcher) for a in obj.get("abilities", ()) if a["id"] not in order]
        if first:
            scenario["script"][-1]["actions"].insert(0, {"by": scenario["active_player"], "effect": first})

    def tour_deaths(self, watcher: dict[str, Any], company: dict[str, Any], stayers: list[str]) -> list[dict[str, Any]]:
        """A creature dealt lethal damage by the company (state-based actions, 704.3, during and after the action), with
        another in the same event (watched as it is dealt damage), the one the watcher's control-change ability
        destroys;
        another destroyed by the watcher's ability as the card enters, "when you do, ..." (603.12); and a state trigger
        on the company, "when that card is in a graveyard, exile it" (603.8). The scripted actions."""
        src = self.source
        owner = company["owner"]
        actions: list[dict[str, Any]] = []
        if "script_damage" not in self.excluded and src.chance(70):
            victim, bystander = self.fresh(src.pick(stayers)), self.fresh(src.pick(stayers))
            victim["toughness"], bystander["toughness"] = 1, 2
            hits = [{"source": company["id"], "object": thing["id"], "amount": 1} for thing in (victim, bystander)]
            if "damage_occurrences" in self.excluded:
                actions.append({"do": "damage", **hits[0]})
            else:  # one event, two occurrences (120.2)
                actions.append({"do": "damage_together", "hits": hits})
            if not {"dealt_damage", "event_triggers"} & self.excluded:  # "whenever that creature is dealt damage"
                company.setdefault("abilities", []).append({"id": self.ability_id(), "trigger": {
                    "event": "dealt_damage", "subject": victim["id"]} | (
                        {} if "filters" in self.excluded else {"nontoken": True}), "effect": self.answer(owner)})
            control = next((a for a in watcher["abilities"] if a["trigger"]["event"] == "control"), None)
            if control and "targets" not in self.excluded:  # "..., destroy target creature"
                control["target"] = {"candidates": [bystander["id"]]}
                control["effect"] = [{"do": "move_target", "to": "graveyard"}]
        entering = next((a for a in watcher["abilities"] if a["trigger"]["event"] == "enter"), None)
        if entering and not {"reflexive", "reflexive_anywhere", "other_objects"} & self.excluded and src.chance(70):
            prey = self.fresh(src.pick(stayers))
            entering["effect"] = [{"do": "move", "object": prey["id"], "from": "field", "to": "graveyard"}, {
                "do": "reflexive", "ability": {"id": self.ability_id("R"), "trigger": {
                    "event": "leave", "subject": prey["id"], "to": "graveyard"}, "effect": self.answer(
                        watcher["owner"])}}] + entering["effect"]
        card = entering["trigger"]["subject"] if entering else None
        if card and not {"state_triggers", "other_objects"} & self.excluded and src.chance(50):
            company.setdefault("abilities", []).append({"id": self.ability_id(), "trigger": {
                "event": "state", "state": {"test": "in_zone", "object": card, "zone": "graveyard"}}, "effect": [
                    {"do": "move", "object": card, "from": "graveyard", "to": "exile"}]})
        return actions
