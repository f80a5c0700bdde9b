"""Random Redemption scenarios: two to four players with the active player in any seat, simultaneous mandatory and
optional triggers of several players, cards discarded or set aside while their triggers are pending, negation,
changes of control (and triggers on them), cards played from hand with "If X, Y" abilities that check on play, triggers arising while
another triggered ability resolves, and effects that end the phase while triggers are still pending.

Every scenario terminates: a card enters play only by being played from hand (nothing returns to hand), so each card
enters and leaves play a bounded number of times; moves between the set-aside area and the discard pile trigger
nothing; a signal ``sK`` only triggers abilities that emit signals of a higher level, so chains of signals are
at most ``MAX_LEVEL`` long; and an ability triggered by a change of control neither signals nor changes control, so
control changes do not feed each other.
"""

from __future__ import annotations

from typing import Any

from conformance.generation.source import ChoiceSource

MAX_LEVEL = 2
PHASES = ["draw", "upkeep", "preparation", "battle", "discard"]
ZONES_OUT = ["graveyard", "set_aside"]
ZONES_TESTED = ["field", "graveyard", "set_aside", "hand"]


class _Builder:
    def __init__(self, source: ChoiceSource, edition: str):
        self.source = source
        self.edition = edition
        self.objects: list[dict[str, Any]] = []
        self.hand: list[str] = []
        self.next_ability = 0
        self.optional: list[str] = []
        self.players: list[str] = []
        self.watching_control: list[str] = []  # cards with an ability triggered by a change of control
        self.current_card = ""
        self.last_situation: tuple[dict[str, Any], int] = ({"event": "signal", "name": "s0"}, 0)
        self.one_ability: list[tuple[dict[str, Any], int]] = []  # negate actions that name one ability: (action, pick)

    def ability_id(self) -> str:
        self.next_ability += 1
        return f"A{self.next_ability}"

    @property
    def objects_by_id(self) -> dict[str, dict[str, Any]]:
        return {o["id"]: o for o in self.objects}

    def card_ids(self) -> list[str]:
        return [o["id"] for o in self.objects]

    # -- Effects -----------------------------------------------------------------------------------------------

    def primitive(self, level: int, scripted: bool = False) -> dict[str, Any]:
        """One primitive action of an effect of an ability triggered at ``level`` (-1: a scripted action)."""
        s = self.source
        kind = s.integer(0, 11)
        if kind <= 2 and level < MAX_LEVEL:
            return {"do": "signal", "name": f"s{s.integer(level + 1, MAX_LEVEL) if not scripted else s.integer(0, 1)}"}
        if kind <= 5:
            return {"do": "move", "object": s.pick(self.card_ids()), "to": s.pick(ZONES_OUT)}
        if kind == 6 and self.hand:
            return {"do": "play", "object": s.pick(self.hand)}
        if kind in (7, 8):
            action = {"do": "negate", "object": s.pick(self.card_ids())}
            if s.chance(50):  # one ability of a card that has several; settled once every card has its abilities
                self.one_ability.append((action, s.integer(0, 2)))
            return action
        if kind in (9, 10):
            watched = self.watching_control or self.card_ids()
            card = s.pick(watched) if s.chance(60) else s.pick(self.card_ids())
            return {"do": "gain_control", "object": card, "player": s.pick(self.players)}
        return {"do": "end_phase"}

    def effect(self, level: int) -> list[dict[str, Any]]:
        return [self.primitive(level) for _ in range(self.source.count(0, 2))]

    # -- Abilities ---------------------------------------------------------------------------------------------

    def triggered(self, in_hand: bool, same_as: tuple[dict[str, Any], int] | None = None) -> dict[str, Any]:
        """A triggered ability; ``same_as``: the (trigger, effect level) of another ability of the card, whose
        situation this one shares (so one event triggers both, and negating one of them is seen)."""
        s = self.source
        kind = -1 if same_as is not None else s.integer(0, 7)
        if same_as is not None:
            trigger, effect_level = dict(same_as[0]), same_as[1]
        elif kind <= 3:
            level = s.integer(0, MAX_LEVEL)
            trigger, effect_level = {"event": "signal", "name": f"s{level}"}, level
        elif kind == 4:
            trigger, effect_level = {"event": "leave", "subject": "self"}, -1
        elif kind == 5:
            trigger, effect_level = {"event": "leave", "subject": s.pick(["any", "other"])}, -1
        elif kind == 6:
            trigger, effect_level = {"event": "play", "subject": "self" if in_hand else "any"}, -1
        else:  # a change of control (issue 12 item 3): of this very card (option control_change_holder), or of any
            trigger, effect_level = {"event": "control", "subject": "any" if s.chance(30) else "self"}, -1
        if trigger["event"] == "control" and self.current_card not in self.watching_control:
            self.watching_control.append(self.current_card)
        self.last_situation = (trigger, effect_level)
        ability: dict[str, Any] = {"id": self.ability_id(), "trigger": trigger}
        shape = s.integer(0, 19)  # one draw for the ability's kind, so that shrinking has fewer choices to walk
        if shape >= 12:
            ability["optional"] = True
            self.optional.append(ability["id"])
        elif shape >= 9:
            ability["ends_if_card_leaves"] = True
        if shape in (9, 11, 16, 19):
            ability["active_in"] = ["field", "set_aside"]
        ability["effect"] = self.effect(max(effect_level, 0))
        if trigger["event"] == "control":  # no signal or change of control: a chain of control changes could loop
            ability["effect"] = [a for a in ability["effect"] if a["do"] not in ("signal", "gain_control")]
        return ability

    def on_play(self, card: str) -> dict[str, Any]:
        s = self.source
        condition = {"test": s.pick(["in_zone", "not_in_zone"]), "object": s.pick(self.card_ids() + ["self"]),
                     "zone": s.pick(ZONES_TESTED)}
        return {"id": self.ability_id(), "trigger": {"event": "play", "subject": "self"}, "checks_on_play": True,
                "condition": condition, "effect": [self.primitive(0) for _ in range(s.count(1, 2))]}

    # -- The scenario ------------------------------------------------------------------------------------------

    def build(self) -> dict[str, Any]:
        s = self.source
        self.players = [f"P{k + 1}" for k in range(2 + s.integer(0, 2))]
        active = self.players[s.integer(0, len(self.players) - 1)]
        for player in self.players:
            for k in range(1 + s.count(0, 1)):
                self.objects.append({"id": f"{player}c{k + 1}", "owner": player, "zone": "field"})
            if s.chance(45):
                card = f"{player}h1"
                self.objects.append({"id": card, "owner": player, "zone": "hand"})
                self.hand.append(card)
        if s.chance(30):  # one card controlled by a player other than its owner
            obj = s.pick([o for o in self.objects if o["zone"] == "field"])
            obj["controller"] = s.pick([p for p in self.players if p != obj["owner"]])
        for obj in self.objects:
            self.current_card = obj["id"]
            abilities = []
            if obj["zone"] == "hand":
                abilities += [self.on_play(obj["id"]) for _ in range(s.count(1, 2))]
                if s.chance(50):
                    abilities.append(self.triggered(in_hand=True))
            else:
                two = s.count(0, 1)
                abilities.append(self.triggered(in_hand=False))
                if two:
                    abilities.append(self.triggered(in_hand=False,
                                                    same_as=self.last_situation if s.chance(40) else None))
            obj["abilities"] = abilities

        first = s.integer(0, len(PHASES) - 1)
        phases = PHASES[first: first + 1 + s.count(0, 2)]
        script = []
        in_play = [o["id"] for o in self.objects if o["zone"] == "field"]
        optional_in_play = [o["id"] for o in self.objects if o["zone"] == "field"
                            and any(a.get("optional") for a in o["abilities"])]
        for phase in phases:
            actions = []
            for _ in range(1 + s.count(0, 1)):
                by = active if not s.chance(20) else s.pick(self.players)
                effect = [{"do": "signal", "name": f"s{s.integer(0, 1)}"}]
                effect += [self.primitive(-1, scripted=True) for _ in range(s.count(0, 2))]
                if s.chance(35):  # cards leave while the triggers the action caused are pending (TA.3) ...
                    effect += [{"do": "move", "object": s.pick(optional_in_play if optional_in_play and s.chance(50)
                                                               else in_play),
                                "to": "set_aside" if s.chance(25) else "graveyard"} for _ in range(1 + s.count(0, 1))]
                    if s.chance(70):  # ... and the effect ends the phase before they can take their turns
                        effect.append({"do": "end_phase"})
                actions.append({"by": by, "effect": effect})
            script.append({"step": phase, "actions": actions})

        several = [o for o in self.objects if len(o["abilities"]) > 1]
        # cards with two abilities that trigger together first: negating one of them shows whether the other goes on
        several = [o for o in several if o["abilities"][0]["trigger"] == o["abilities"][1]["trigger"]] or several
        for action, pick in self.one_ability:
            if several and len(self.objects_by_id[action["object"]]["abilities"]) < 2:
                action["object"] = several[self.card_ids().index(action["object"]) % len(several)]["id"]
            abilities = [a["id"] for a in self.objects_by_id[action["object"]]["abilities"]]
            if abilities:
                action["ability"] = abilities[pick % len(abilities)]

        scenario: dict[str, Any] = {
            "format": "trigger-conformance/scenario/1",
            "ruleset": "redemption",
            "edition": self.edition,
            "players": self.players,
            "active_player": active,
            "objects": self.objects,
            "script": script,
        }
        choices: dict[str, Any] = {}
        preferred: list[str] = []
        for _ in range(s.count(0, 4)):  # a few abilities a player prefers to resolve first
            ability = f"A{s.integer(1, self.next_ability)}"
            if ability not in preferred:
                preferred.append(ability)
        if preferred:
            choices["trigger_order"] = preferred
        declined = {s.pick(self.optional): False for _ in range(s.count(0, 2))} if self.optional else {}
        if declined:
            choices["optional"] = declined
        if choices:
            scenario["choices"] = choices
        return scenario


def build_scenario(source: ChoiceSource, edition: str) -> dict[str, Any]:
    """A Redemption scenario document (without ``options``), a deterministic function of ``source``'s answers."""
    return _Builder(source, edition).build()
