"""The zone tour of issue 30 item 2 (reference_engine/common/zone_tour.py) in MTG, drawn after every other answer of a
scenario (so the stream of the rest is as without it), with what MTG's vocabulary adds around it:

* the card may start as a spell in a hand (cast: onto the stack, then onto the battlefield as a permanent spell
  resolves, or countered by the watcher's "whenever that card is cast, counter it") or as a token not yet created
  (``uncreated``, then created), so that objects leave the stack and ``uncreated`` too;
* the watcher's "whenever that card changes zones" may be optional ("you may", 603.5), its "whenever that card leaves
  the battlefield" says "nontoken"; its abilities (and the delayed ones created) may carry an intervening 'if' of any
  of MTG's tests (a zone, a life total, an empty zone); its "whenever that card enters" destroys a creature, "when you
  do, ..." (603.12);
* a permanent given to another player first (its triggers are controlled by a player who does not own it), watched
  by a herald ("whenever that permanent changes control", else "whenever that card enters") whose ability creates
  delayed "whenever that card leaves" abilities of each duration (two, by the watcher, on each entering, without the
  control change) and destroys a target creature; the permanent deals itself prevented damage ("whenever this deals
  damage": 603.2g, nothing triggers on it); the herald's ability triggering and going on the stack is
  watched by the permanent (603.3b's second pass), which also watches players leaving the game and deals lethal
  damage to a creature and 1 to the herald's target in one event (704.3; "whenever that creature is dealt damage");
  a state trigger exiles the card from a graveyard (603.8);
* a player who may leave the game concedes as the card makes its second move, a permanent of theirs watching it
  and the herald's ability going on the stack.

The tour is not swarmed: its parts follow the profile's exclusions, not the scenario's swarm draw (the tour brings
its rarer features to scenarios whose draw left them out, so that the rules they exercise meet the words the rest
shows), each part drawn with its own odds, so that shrinking turns the parts a failure does not need off.

Every effect does nothing (or sends a named signal nothing listens to, where the profile leaves empty effects out;
a life gain without signals), so nothing cascades, and every move is scripted, so the scenario still terminates.
The costs: each part adds triggers, and a watcher of abilities triggering or going on the stack makes every one an
event, so the tour comes in a third of the scenarios, and its moves mostly stay off the battlefield, where the rest of
the scenario's abilities would answer them."""

from __future__ import annotations

from typing import Any

from reference_engine.common.zone_tour import zone_tour
from reference_engine.kernel.derived import tour_words
from reference_engine.mtg.judge.vocabulary import VOCABULARY

TOUR_CHANCE = 35  # percent
PART_CHANCE = 90  # percent of tours, for each part around the card (where the scenario's features allow it): few
# tours, each with nearly everything, so that the rules the parts exercise meet the words the others show
DIRECT = 65  # percent of moves from one zone to another off the battlefield (no "enters" or "leaves" for the rest of
# the scenario's abilities to answer: those cascade)
TRIGGERED_CHANCE, STACKED_CHANCE = 50, 30  # percent of tours watching an ability triggering, going on the stack
QUIET = "tour"  # the named signal the tour's abilities send where effects may not be empty: nothing listens to it
DURATIONS = ("step", "turn", "next_turn", "until_your_next_turn")  # create_delayed's (603.7b)


_READ = frozenset({"zone_changes", "exile", "graveyard_triggers"})  # the exclusions tour_words reads
_WORDS: dict[frozenset, dict[str, tuple[str, ...]]] = {}  # their set -> the tour's words (a derived table, cached)
_KINDS = tour_words(VOCABULARY)["kinds"]  # the kernel's enter and leave, then MTG's move and zone_change


class TourPieces:
    """The zone tour of a :class:`~reference_engine.mtg.generator.builder.Builder` (a mixin)."""

    def tour_words(self) -> dict[str, tuple[str, ...]]:
        """What the tour takes from MTG's vocabulary, less what the profile excludes (a new dict; computed once for
        each set of the exclusions it reads: :data:`_WORDS`)."""
        key = frozenset(self.excluded & _READ)
        if key not in _WORDS:
            _WORDS[key] = self._tour_words()
        return dict(_WORDS[key])

    def _tour_words(self) -> dict[str, tuple[str, ...]]:
        words = tour_words(VOCABULARY)
        words["stops"] = tuple(z for z in words["stops"] if z != "stack")  # a card goes there only cast (a spell)
        if "zone_changes" in self.excluded:  # triggers on zone changes between any two zones
            words["kinds"] = tuple(k for k in words["kinds"] if k in ("enter", "leave"))
        if "exile" in self.excluded:
            words = {part: tuple(z for z in zones if z != "exile") for part, zones in words.items()}
        if {"graveyard_triggers", "exile"} & self.excluded:  # cards in a graveyard watching (implied by "exile")
            words["works_from"] = tuple(z for z in words["works_from"] if z != "graveyard")
        return words

    def answer(self, owner: str) -> list[dict[str, Any]]:
        """Nothing; where empty effects are left out, a named signal nothing listens to (else, a life gain)."""
        if "empty_effects" not in self.excluded:
            return []
        return [{"do": "life", "player": owner, "amount": 1} if "signals" in self.excluded else {"do": "signal",
                                                                                            "name": QUIET}]

    def zone_tour_piece(self, scenario: dict[str, Any]) -> None:
        """Draw the tour and add it to ``scenario`` (in place); see the module docstring."""
        src = self.source
        stayers = [p for p in scenario["players"] if p not in self.doomed]
        variant = "card"
        for name, features, percent in (("spell", {"spells"}, 60), ("token", {"tokens", "event_triggers"}, 50)):
            if src.chance(percent) and variant == "card" and not features & self.excluded:
                variant = name
        words = self.tour_words()
        start = {"spell": "hand", "token": "uncreated"}.get(variant)
        if start is None and "graveyard" not in words["works_from"]:  # no card starts in a graveyard either
            start = src.pick([z for z in words["stops"] if z not in ("graveyard", "field")])
        tour = zone_tour(scenario, src, TOUR_CHANCE, **words, enabled="zone_tour" not in self.excluded,
                         owners=stayers, start=start, names_from=True,  # nothing leaves the game, once out of it
                         together=True,  # one action: its triggers wait together (and the scenario stays small)
                         direct=DIRECT)
        if tour is None:
            return
        card, watcher, moves, step = tour["card"], tour["watcher"], tour["moves"], scenario["script"][-1]["actions"]
        first_new = self.objects.index(card)
        for ability in watcher["abilities"]:
            ability["effect"] = self.answer(watcher["owner"])
            if ability["trigger"]["event"] == "zone_change" and src.chance(50):  # "you may" (603.5)
                ability["optional"] = True
            if ability["trigger"]["event"] == "zone_change" and "batching" not in self.excluded:
                ability["once_each_turn"] = True  # "do this only once each turn" (603.2h)
            if ability["trigger"]["event"] == "leave" and "filters" not in self.excluded:  # "..., if it's not a token"
                ability["trigger"]["nontoken"] = True
        herald = self.tour_company(scenario, watcher, stayers)
        self.tour_delayed(card, watcher, herald)
        self.tour_conditions(card, [watcher, herald])  # not on the cast or countered watchers
        if variant == "spell":  # cast on its own (it resolves, or is countered, before the moves)
            card["spell"] = {"effect": [], "permanent": True}
            del moves[0]
            step.insert(step.index(tour["actions"][0]), {"by": card["owner"], "effect": [
                {"do": "cast", "object": card["id"]}]})
            if self.tour_cast(card, watcher) and moves:  # countered: into a graveyard, not onto the battlefield
                moves[0]["from"] = "graveyard"
                if moves[0]["to"] == "graveyard":
                    moves[0]["to"] = "field"
        elif variant == "token":
            card["token"] = True
            moves[0] = {"do": "create_token", "objects": [card["id"]]}
        self.tour_departure(card, herald, moves)
        order = scenario["choices"]["trigger_order"]
        order += [a["id"] for obj in self.objects[first_new:] for a in obj.get("abilities", ()) if a["id"] not in order]

    def tour_departure(self, card: dict[str, Any], herald: dict[str, Any], moves: list[dict[str, Any]]) -> None:
        """A player who may leave the game concedes as the card makes its second move, a permanent of theirs watching
        the card (its trigger from that move ceases to exist with them, 800.4a) and the herald's ability going on the
        stack."""
        src = self.source
        if not self.doomed or "players_leaving" in self.excluded or len(moves) < 2 or not src.chance(PART_CHANCE):
            return
        leaver = src.pick(self.doomed)
        straggler = self.fresh(leaver)
        kind = "enter" if "zone_changes" in self.excluded else "zone_change"
        straggler["abilities"] = [{"id": self.ability_id(), "trigger": {"event": kind, "subject": card["id"]},
                                   "effect": self.answer(leaver)}]
        if "watchers" not in self.excluded:
            straggler["abilities"].append({"id": self.ability_id(), "trigger": {
                "event": "ability_stacked", "subject": herald["id"]}, "effect": self.answer(leaver)})
        moves.insert(2, {"do": "concede", "player": leaver})

    def _watch(self, watcher: dict[str, Any], trigger: dict[str, Any], effect: list[dict[str, Any]]) -> None:
        works_from = watcher["abilities"][0]["active_in"]
        watcher["abilities"].append({"id": self.ability_id("WB"), "trigger": trigger, "active_in": list(works_from),
                                     "effect": effect})

    def tour_cast(self, card: dict[str, Any], watcher: dict[str, Any]) -> bool:
        """The spell's cast watched, maybe countered (an object leaving the stack either way); its counter watched.
        Whether it is countered."""
        src = self.source
        countered = "other_objects" not in self.excluded and src.chance(90)
        self._watch(watcher, {"event": "cast", "subject": card["id"]},
                    [{"do": "counter", "object": card["id"]}] if countered else self.answer(watcher["owner"]))
        self._watch(watcher, {"event": "countered", "subject": card["id"]}, self.answer(watcher["owner"]))
        return countered

    def tour_conditions(self, card: dict[str, Any], holders: list[dict[str, Any]]) -> None:
        """An intervening 'if' on some of the watcher's abilities (the first holder's; those triggering most first) and
        the delayed abilities the holders' create, of each of MTG's tests by turns (in reverse order of their names:
        an empty zone, a card not in a zone, a life total at most, at least, then a card in a zone)."""
        src = self.source
        tests = [t for t in sorted(VOCABULARY.condition_tests, reverse=True) if not (
            ("zone_conditions" in self.excluded and "zone" in t)
            or ("other_objects" in self.excluded and t.endswith("in_zone")))]
        if not tests:
            return
        zones = list(self.tour_words()["stops"])
        abilities = [a for holder in holders for a in holder["abilities"]]
        delayed = [a["ability"] for ability in abilities for a in ability["effect"] if a["do"] == "create_delayed"]
        kinds = _KINDS
        guarded = sorted(abilities[:len(holders[0]["abilities"])], key=lambda a: -kinds.index(a["trigger"][
            "event"]))  # "whenever that card changes zones" first: it triggers the most
        for n, ability in enumerate(guarded + delayed):
            if not src.chance(85):
                continue
            test = tests[n % len(tests)]  # the rarest to hold first, on the ability triggering most
            if test.endswith("in_zone"):
                condition = {"test": test, "object": card["id"], "zone": src.pick(zones)}
            elif test == "zone_empty":  # mostly true: few cards are ever in a library, the card not in that one
                others = [p for p in self.all_players if p not in self.doomed and p != card["owner"]]
                condition = {"test": test, "zone": "deck", "player": others[0] if others else "controller"}
            else:  # mostly true: life totals start at 20
                condition = {"test": test, "player": "controller", "value": 20 + src.integer(0, 5) * (
                    1 if test == "life_at_most" else -1)}
            ability["intervening_if"] = condition

    def tour_delayed(self, card: dict[str, Any], watcher: dict[str, Any], herald: dict[str, Any]) -> None:
        """"Whenever that card leaves, ..." for each duration, created by the herald's ability on a control change
        (which triggers once), or two of them by the watcher's "whenever that card enters" (on each entering)."""
        src = self.source
        if {"delayed", "delayed_anywhere", "repeated_delayed_creations", "scripted_delayed_triggers"} & self.excluded:
            return
        once = herald["abilities"][0]["trigger"]["event"] == "control"
        creator = herald["abilities"][0] if once else next(
            (a for a in watcher["abilities"] if a["trigger"]["event"] == "enter"), None)
        if creator is None or not src.chance(PART_CHANCE):
            return
        durations = [d for d in DURATIONS if "turns" not in self.excluded or d in ("step", "turn")]
        creator["effect"] = creator["effect"] + [{"do": "create_delayed", "duration": duration, "ability": {
            "id": self.ability_id("D"), "trigger": {"event": "leave", "subject": card["id"]},
            "effect": self.answer(watcher["owner"])}} for duration in src.permutation(durations)[:4 if once else 2]]

    def tour_company(self, scenario: dict[str, Any], watcher: dict[str, Any],
                     stayers: list[str]) -> dict[str, Any]:
        """A permanent watching players leave the game, given to another player first (watched by a herald: "whenever
        that permanent changes control, ...", else "whenever that card enters, ..."; the herald's ability triggering
        and put on the stack watched by the permanent) and dealing itself prevented damage (scripted); then the
        deaths. The herald."""
        src = self.source
        owner = src.pick(stayers)
        company, herald = self.fresh(owner), None
        company["abilities"] = []
        if not {"event_triggers", "players_leaving"} & self.excluded and self.doomed:
            company["abilities"].append({"id": self.ability_id(), "trigger": {"event": "player_leaves"},
                                         "effect": self.answer(owner)})
        first: list[dict[str, Any]] = []
        others = [p for p in stayers if p != owner]
        herald = self.fresh(watcher["owner"])
        card = watcher["abilities"][0]["trigger"]["subject"]
        herald["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "enter", "subject": card},
                                "effect": self.answer(herald["owner"])}]  # else: "whenever that card enters"
        if others and "gain_control" not in self.excluded and src.chance(PART_CHANCE):
            herald["abilities"][0]["trigger"] = {"event": "control", "subject": company["id"]}
            first.append({"do": "gain_control", "object": company["id"], "player": src.pick(others)})
        for kind, percent in (("ability_triggered", TRIGGERED_CHANCE), ("ability_stacked", STACKED_CHANCE)):
            # the herald's ability triggering, and put on the stack, watched (once anything watches abilities, every
            # ability triggering, or put on the stack, is an event: the dearest part)
            if "watchers" not in self.excluded and src.chance(percent):
                company["abilities"].append({"id": self.ability_id(), "trigger": {"event": kind, "subject": herald[
                    "id"]}, "effect": self.answer(owner)})
        if not {"prevented", "event_triggers", "script_damage"} & self.excluded and src.chance(PART_CHANCE):
            company["abilities"].append({"id": self.ability_id(), "trigger": {"event": "damage", "subject": "self"},
                                         "effect": self.answer(owner)})  # "whenever this deals damage"
            first.append({"do": "damage", "source": company["id"], "object": company["id"], "amount": 1,
                          "prevented": True})  # scripted: a failure about it shrinks to the permanent and this
        first += self.tour_deaths(watcher, herald, company, stayers)
        if not company["abilities"]:
            del company["abilities"]
        order = scenario["choices"]["trigger_order"]
        order += [a["id"] for obj in (company, watcher, herald) for a in obj.get("abilities", ())
                  if a["id"] not in order]
        if first:
            scenario["script"][-1]["actions"].insert(0, {"by": scenario["active_player"], "effect": first})
        return herald

    def tour_deaths(self, watcher: dict[str, Any], herald: dict[str, Any], company: dict[str, Any],
                    stayers: list[str]) -> list[dict[str, Any]]:
        """A creature dealt lethal damage by the company (state-based actions, 704.3, during and after the action), with
        another in the same event (watched as it is dealt damage), the one the herald's ability destroys (targeted);
        another destroyed by the watcher's ability as the card enters, "when you do, ..." (603.12); and a state trigger
        on the company, "when that card is in a graveyard, exile it" (603.8). The scripted actions."""
        src = self.source
        owner = company["owner"]
        actions: list[dict[str, Any]] = []
        if "script_damage" not in self.excluded and src.chance(PART_CHANCE):
            victim, bystander = self.fresh(src.pick(stayers)), self.fresh(src.pick(stayers))
            victim["toughness"], bystander["toughness"] = 1, 2
            hits = [{"source": company["id"], "object": thing["id"], "amount": 1} for thing in (victim, bystander)]
            if "damage_occurrences" in self.excluded:
                actions.append({"do": "damage", **hits[0]})
            else:  # one event, two occurrences (120.2)
                actions.append({"do": "damage_together", "hits": hits})
            if not {"dealt_damage", "event_triggers"} & self.excluded:  # "whenever that creature is dealt damage"
                company.setdefault("abilities", []).append({"id": self.ability_id(), "trigger": {
                    "event": "dealt_damage", "subject": victim["id"]}, "effect": self.answer(owner)})
            control = herald["abilities"][0]
            if control["trigger"]["event"] == "control" and "targets" not in self.excluded:  # "destroy target creature"
                control["target"] = {"candidates": [bystander["id"]]}
                control["effect"] = control["effect"] + [{"do": "move_target", "to": "graveyard"}]
        first = next((a for a in watcher["abilities"] if a["trigger"]["event"] == "zone_change"),
                     watcher["abilities"][0])  # "whenever that card changes zones": it sees every move
        if not {"reflexive", "reflexive_anywhere", "other_objects"} & self.excluded and \
                src.chance(PART_CHANCE):
            prey = self.fresh(src.pick(stayers))
            first["effect"] = [{"do": "move", "object": prey["id"], "from": "field", "to": "graveyard"}, {
                "do": "reflexive", "ability": {"id": self.ability_id("R"), "trigger": {
                    "event": "leave", "subject": prey["id"], "to": "graveyard"}, "effect": self.answer(
                        watcher["owner"])}}] + first["effect"]
        card = first["trigger"]["subject"]
        if not {"state_triggers", "other_objects"} & self.excluded and src.chance(PART_CHANCE):
            company.setdefault("abilities", []).append({"id": self.ability_id(), "trigger": {
                "event": "state", "state": {"test": "in_zone", "object": card, "zone": "graveyard"}}, "effect": [
                    {"do": "move", "object": card, "from": "graveyard", "to": "exile"}]})
        return actions
