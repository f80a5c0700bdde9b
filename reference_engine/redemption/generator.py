"""Random Redemption scenarios: two to four players with the active player in any seat, simultaneous mandatory and
optional triggers of several players, cards discarded or set aside while their triggers are pending, negation,
changes of control (and triggers on them), cards played from hand with "If X, Y" abilities that check on play, chains
of triggers arising while another triggered ability resolves, and effects that end the phase while triggers are still
pending.

**Swarm testing** (Groce et al., "Swarm Testing", ISSTA 2012): each scenario first draws which of the
:data:`FEATURES` it enables, one draw per feature before anything else, and builds only with those; so one scenario
has many negations and no optional abilities, another the reverse, instead of every scenario holding a little of
everything. An answer of 0 turns a feature off, so shrinking an answer log toward zeros switches features off. An
engine's generation profile (``profile={"exclude": [...]}``) keeps the excluded features off in every scenario.

Every scenario terminates: a card enters play only by being played from hand (nothing returns to hand), so each card
enters and leaves play a bounded number of times; moves between the set-aside area and the discard pile trigger
nothing; a signal ``sK`` only triggers abilities that emit signals of a higher level, so chains of signals are
at most ``MAX_LEVEL`` long; and an ability triggered by a change of control neither signals nor changes control, so
control changes do not feed each other. Scenarios stay small enough to judge quickly: a triggered ability emits at
most one signal and at most ``LISTENERS`` abilities listen to each level, so one signal causes at most about
``LISTENERS ** MAX_LEVEL`` resolutions (over 10,000 scenarios of seeds 0 to 4: median 88 trace entries, largest
6,395, against the reference engine's guard of 20,000).
"""

from __future__ import annotations

from typing import Any

from reference_engine.common.into_play import put_into_play
from reference_engine.common.zone_tour import zone_tour
from reference_engine.kernel.derived import tour_words
from reference_engine.kernel.source import ChoiceSource
from reference_engine.redemption.judge.vocabulary import VOCABULARY

MAX_LEVEL = 4
LISTENERS = 3  # abilities triggered by one signal level, while every level has not that many (see _Builder.room)
TOUR_CHANCE = 40  # percent: a card's tour of the zones (reference_engine/common/zone_tour.py)
PHASES = ["draw", "upkeep", "preparation", "battle", "discard"]

# The swarm's features, in the order they are drawn, each with the chance (percent) that a scenario enables it.
FEATURES: dict[str, int] = {
    "several_players": 70,
    "play": 55,
    "if_x_y": 65,
    "negate": 55,
    "negate_ability": 45,
    "gain_control": 60,
    "control_triggers": 60,
    "end_phase": 70,
    "set_aside": 50,
    "optional": 65,
    "ends_if_card_leaves": 45,
    "discards": 80,
    "leave_triggers": 55,
}
# What a scenario has with each feature (docs/checking.md lists them, generated from here).
FEATURE_DOCS: dict[str, str] = {
    "zone_tour": "a card's tour of the zones, watched from each zone an ability works from (issue 30); a profile excluding this leaves it out (the editors' small scenarios do)",
    "several_players": "three or four players (else two)",
    "play": "cards in hand played by effects, and abilities triggered by a card being played",
    "if_x_y": "'If X, Y' abilities that check on play (TA.2); needs \"play\"",
    "negate": "negating a card's pending triggers",
    "negate_ability": "negating one ability of a card",
    "gain_control": "changes of control, and cards controlled by a player other than their owner",
    "control_triggers": "abilities triggered by a change of control",
    "end_phase": "effects ending the phase while triggers wait (so mandatory ones may lapse)",
    "set_aside": "the set-aside area: cards set aside or starting there, abilities working there",
    "optional": "optional triggered abilities (and players declining them)",
    "ends_if_card_leaves": "abilities whose card says they end once it is gone",
    "discards": "cards leaving play by effects, also while the triggers they caused wait",
    "leave_triggers": "abilities triggered by a card leaving play",
}
# zone_tour: a profile may leave the card's tour of the zones out (the editors' small scenarios do); not swarmed
PROFILE_FEATURES = frozenset(FEATURES) | {"zone_tour"}


class _Builder:
    def __init__(self, source: ChoiceSource, edition: str, exclude: frozenset[str] = frozenset()):
        self.source = source
        self.edition = edition
        # The swarm draw: first, and one answer per feature whatever the profile, so logs keep their layout.
        self.on = {name for name, percent in FEATURES.items() if source.chance(percent) and name not in exclude}
        self.exclude = exclude
        if "play" not in self.on:
            self.on.discard("if_x_y")
        self.zones_out = ["graveyard", "set_aside"] if "set_aside" in self.on else ["graveyard"]
        self.zones_tested = ["field", "graveyard", "hand"] + (["set_aside"] if "set_aside" in self.on else [])
        self.objects: list[dict[str, Any]] = []
        self.hand: list[str] = []
        self.next_ability = 0
        self.optional: list[str] = []
        self.players: list[str] = []
        self.watching_control: list[str] = []  # cards with an ability triggered by a change of control
        self.current_card = ""
        self.signal_abilities = 0
        self.listeners = [0] * (MAX_LEVEL + 1)  # abilities triggered by each signal level
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

    def kinds(self, level: int, signals: bool) -> list[str]:
        """The primitive actions the enabled features allow, each as often as its weight."""
        kinds = ["signal"] * 3 if signals and level < MAX_LEVEL else []
        if "discards" in self.on:
            kinds += ["move"] * 4
        if "play" in self.on and self.hand:
            kinds += ["play"]
        if "negate" in self.on or "negate_ability" in self.on:
            kinds += ["negate"] * 2
        if "gain_control" in self.on:
            kinds += ["gain_control"] * 2
        if "end_phase" in self.on:
            kinds += ["end_phase"]
        return kinds

    def primitive(self, level: int, scripted: bool = False, signals: bool = True) -> dict[str, Any] | None:
        """One primitive action of an effect of an ability triggered at ``level`` (a scripted action when
        ``scripted``); None when the features allow none."""
        s = self.source
        kinds = self.kinds(level, signals)
        if not kinds:
            return None
        kind = s.pick(kinds)
        if kind == "signal":
            return {"do": "signal", "name": f"s{s.integer(level + 1, MAX_LEVEL) if not scripted else s.integer(0, 1)}"}
        if kind == "move":
            return {"do": "move", "object": s.pick(self.card_ids()), "to": s.pick(self.zones_out)}
        if kind == "play":
            return {"do": "play", "object": s.pick(self.hand)}
        if kind == "negate":
            action = {"do": "negate", "object": s.pick(self.card_ids())}
            either, pick = s.chance(50), s.integer(0, 2)  # read whatever the features (see build)
            if "negate_ability" in self.on and ("negate" not in self.on or either):
                # one ability of a card that has several; settled once every card has its abilities
                self.one_ability.append((action, pick))
            return action
        if kind == "gain_control":
            watched = self.watching_control or self.card_ids()
            card = s.pick(watched) if s.chance(60) else s.pick(self.card_ids())
            return {"do": "gain_control", "object": card, "player": s.pick(self.players)}
        return {"do": "end_phase"}

    def effect(self, level: int, signals: bool = True) -> list[dict[str, Any]]:
        """An effect of an ability triggered at ``level``: most often a signal of the next levels first (chains of
        triggers, each arising while the one before resolves), then a few other actions."""
        s = self.source
        actions: list[dict[str, Any]] = []
        if signals and level < MAX_LEVEL and s.chance(90):
            actions.append({"do": "signal", "name": f"s{level + 1 if s.chance(75) else min(level + 2, MAX_LEVEL)}"})
        for _ in range(s.count(0, 2)):  # no more signals: fan-out per level stays bounded (see signal_level)
            action = self.primitive(level, signals=False)
            if action is not None:
                actions.append(action)
        return actions

    # -- Abilities ---------------------------------------------------------------------------------------------

    def room(self, level: int) -> bool:
        """Whether signal ``level`` may get another listening ability: at most ``LISTENERS`` each, so that a chain
        of signals fans out at most about LISTENERS ** MAX_LEVEL."""
        return self.listeners[level] < LISTENERS

    def signal_level(self, offset: int) -> int | None:
        """The signal level of the next ability triggered by a signal: levels in turn (0, 1, 2, ...), so that a signal
        of each level finds an ability and chains of triggers form; the next one with room. None when every level is
        full: the ability then triggers on ``s0`` (signalled only by scripted actions) and signals nothing."""
        start = (self.signal_abilities + offset) % (MAX_LEVEL + 1)
        self.signal_abilities += 1
        level = next((lv for lv in [*range(start, MAX_LEVEL + 1), *range(start)] if self.room(lv)), None)
        if level is not None:
            self.listeners[level] += 1
        return level

    def trigger_kinds(self) -> list[str]:
        """The situations an ability may trigger on, under the enabled features (signals above all: chains)."""
        kinds = ["signal"] * 5
        if "leave_triggers" in self.on:
            kinds += ["leave_self", "leave_any"]
        if "play" in self.on:
            kinds += ["play"]
        if "control_triggers" in self.on:
            kinds += ["control"]
        return kinds

    def triggered(self, in_hand: bool, same_as: tuple[dict[str, Any], int] | None = None) -> dict[str, Any]:
        """A triggered ability; ``same_as``: the (trigger, effect level) of another ability of the card, whose
        situation this one shares (so one event triggers both, and negating one of them is seen)."""
        s = self.source
        signals = True
        if same_as is not None and same_as[0]["event"] == "signal" and not self.room(same_as[1]):
            same_as = None
        if same_as is not None:
            trigger, effect_level = dict(same_as[0]), same_as[1]
            if trigger["event"] == "signal":
                self.listeners[effect_level] += 1
        else:
            kind = s.pick(self.trigger_kinds())
            if kind == "signal":
                level = self.signal_level(s.integer(0, 1))
                if level is None:
                    level, signals = 0, False
                trigger, effect_level = {"event": "signal", "name": f"s{level}"}, level
            elif kind == "leave_self":
                trigger, effect_level = {"event": "leave", "subject": "self"}, 0
            elif kind == "leave_any":
                trigger, effect_level = {"event": "leave", "subject": s.pick(["any", "other"])}, 0
            elif kind == "play":
                trigger, effect_level = {"event": "play", "subject": "self" if in_hand else "any"}, 0
            else:  # a change of control (issue 12 item 3): of this very card (option control_change_holder), or any
                trigger, effect_level = {"event": "control", "subject": "any" if s.chance(30) else "self"}, 0
        if trigger["event"] == "control" and self.current_card not in self.watching_control:
            self.watching_control.append(self.current_card)
        self.last_situation = (trigger, effect_level)
        ability: dict[str, Any] = {"id": self.ability_id(), "trigger": trigger}
        shape = s.integer(0, 19)  # one draw for the ability's kind, so that shrinking has fewer choices to walk
        if shape >= 12 and "optional" in self.on:
            ability["optional"] = True
            self.optional.append(ability["id"])
        elif shape >= 9 and "ends_if_card_leaves" in self.on:
            ability["ends_if_card_leaves"] = True
        if shape in (9, 11, 16, 19) and "set_aside" in self.on:
            ability["active_in"] = ["field", "set_aside"]
        # An ability triggered by a change of control neither signals nor changes control: a chain could loop.
        control = trigger["event"] == "control"
        ability["effect"] = self.effect(effect_level, signals=signals and not control)
        if control:
            ability["effect"] = [a for a in ability["effect"] if a["do"] not in ("signal", "gain_control")]
        return ability

    def on_play(self, card: str) -> dict[str, Any]:
        s = self.source
        condition = {"test": s.pick(["in_zone", "not_in_zone"]), "object": s.pick(self.card_ids() + ["self"]),
                     "zone": s.pick(self.zones_tested)}
        effect = [a for a in (self.primitive(0) for _ in range(s.count(1, 2))) if a is not None]
        return {"id": self.ability_id(), "trigger": {"event": "play", "subject": "self"}, "checks_on_play": True,
                "condition": condition, "effect": effect or [{"do": "signal", "name": f"s{s.integer(0, 1)}"}]}

    # -- The scenario ------------------------------------------------------------------------------------------

    def build(self) -> dict[str, Any]:
        # Draws that depend on a feature are read whether it is on or not, so that switching a feature off while
        # shrinking leaves the answers after it where they were. The parts draw in this order: players, cards,
        # abilities, script, choices.
        active = self.seat_players()
        self.deal_cards()
        self.give_abilities()
        script = self.script(active)
        self.settle_one_ability()
        scenario: dict[str, Any] = {
            "format": "trigger-conformance/scenario/1",
            "ruleset": "redemption",
            "edition": self.edition,
            "players": self.players,
            "active_player": active,
            "objects": self.objects,
            "script": script,
        }
        choices = self.choices()
        if choices:
            scenario["choices"] = choices
        # issue 30: a card put into play from a hand or a discard pile (an enter event), drawn last
        put_into_play(scenario, self.source, 12, ("hand", "graveyard") if "play" in self.on else ("graveyard",),
                      enabled="discards" in self.on, ordered=False)
        self.tour(scenario)
        return scenario

    def tour(self, scenario: dict[str, Any]) -> None:
        """Issue 30 item 2: a card's tour of the zones, watched from each zone an ability works from (drawn last; not
        under a profile excluding "discards", nor through the set-aside area, or a hand, under one excluding
        "set_aside", or "play"): often played from hand first, with 'If X, Y' abilities, and given to another player
        as it arrives, watched; its last move may end the phase."""
        words = tour_words(VOCABULARY)
        for feature, zone in (("set_aside", "set_aside"), ("play", "hand")):  # no hand without playing from it
            if feature in self.exclude:
                words = {part: tuple(z for z in zones if z != zone) for part, zones in words.items()}
        if "leave_triggers" in self.exclude:
            words["kinds"] = tuple(k for k in words["kinds"] if k != "leave")
        played = not {"play", "if_x_y"} & self.exclude and self.source.chance(70)
        tour = zone_tour(scenario, self.source, TOUR_CHANCE, **words, enabled=not {"discards", "zone_tour"} & self.exclude,
                         ordered=False, start="hand" if played else None)
        if tour is None:
            return
        card, watcher = tour["card"], tour["watcher"]
        if played:  # played from hand, its 'If X, Y' checking where a card is (TA.2)
            card["abilities"] = [{"id": f"{card['id']}{test}", "trigger": {"event": "play", "subject": "self"},
                                  "checks_on_play": True, "condition": {
                                      "test": test, "object": self.source.pick(["self", watcher["id"]]),
                                      "zone": self.source.pick(list(words["stops"]))}, "effect": []}
                                 for test in self.source.permutation(sorted(VOCABULARY.condition_tests))]
            tour["actions"][0]["effect"] = [{"do": "play", "object": card["id"]}]
        others = [p for p in scenario["players"] if p != card["owner"]]
        if others and not {"gain_control", "control_triggers"} & self.exclude and self.source.chance(60):
            watcher["abilities"].append({"id": f"{watcher['id']}C", "trigger": {"event": "control", "subject": card[
                "id"]}, "active_in": list(words["works_from"]), "effect": []})
            tour["actions"][0]["effect"].append({"do": "gain_control", "object": card["id"],
                                                 "player": self.source.pick(others)})
        if "end_phase" not in self.exclude and self.source.chance(50):  # the phase ends while the watcher's wait
            tour["actions"][-1]["effect"].append({"do": "end_phase"})

    def seat_players(self) -> str:
        """Two players, or three or four under "several_players"; returns the active one (any seat)."""
        s = self.source
        more = s.integer(1, 2)
        self.players = [f"P{k + 1}" for k in range(2 + (more if "several_players" in self.on else 0))]
        return self.players[s.integer(0, len(self.players) - 1)]

    def deal_cards(self) -> None:
        """Each player's cards in play (and in hand, under "play"); one controlled by another player, one set aside."""
        s, on = self.source, self.on
        for player in self.players:
            for k in range(2 + s.count(0, 1) + (len(self.players) == 2)):  # two players: a card more each
                self.objects.append({"id": f"{player}c{k + 1}", "owner": player, "zone": "field"})
            if s.chance(60) and "play" in on:
                card = f"{player}h1"
                self.objects.append({"id": card, "owner": player, "zone": "hand"})
                self.hand.append(card)
        if s.chance(40) and "gain_control" in on:  # one card controlled by a player other than its owner
            obj = s.pick([o for o in self.objects if o["zone"] == "field"])
            obj["controller"] = s.pick([p for p in self.players if p != obj["owner"]])
        if s.chance(40) and "set_aside" in on:  # one card starts in the set-aside area
            s.pick([o for o in self.objects if o["zone"] == "field"])["zone"] = "set_aside"

    def give_abilities(self) -> None:
        s = self.source
        for obj in self.objects:
            self.current_card = obj["id"]
            abilities = []
            if obj["zone"] == "hand":
                if "if_x_y" in self.on:
                    abilities += [self.on_play(obj["id"]) for _ in range(s.count(1, 2))]
                if not abilities or s.chance(50):
                    abilities.append(self.triggered(in_hand=True))
            else:
                two = s.count(0, 1)
                abilities.append(self.triggered(in_hand=False))
                if two:
                    abilities.append(self.triggered(in_hand=False,
                                                    same_as=self.last_situation if s.chance(40) else None))
                if obj["zone"] == "set_aside":  # its abilities work there
                    for ability in abilities:
                        ability["active_in"] = ["field", "set_aside"]
            obj["abilities"] = abilities

    def script(self, active: str) -> list[dict[str, Any]]:
        """A few phases in a row, each with a few scripted actions (see :meth:`scripted_effect`)."""
        s = self.source
        first = s.integer(0, len(PHASES) - 1)
        phases = PHASES[first: first + 1 + s.count(0, 2)]
        script = []
        in_play = [o["id"] for o in self.objects if o["zone"] == "field"]
        optional_in_play = [o["id"] for o in self.objects if o["zone"] == "field"
                            and any(a.get("optional") for a in o["abilities"])]
        for phase in phases:
            actions = []
            for _ in range(1 + s.count(0, 2)):
                by = active if not s.chance(20) else s.pick(self.players)
                actions.append({"by": by, "effect": self.scripted_effect(in_play, optional_in_play)})
            script.append({"step": phase, "actions": actions})
        return script

    def scripted_effect(self, in_play: list[str], optional_in_play: list[str]) -> list[dict[str, Any]]:
        """A scripted action's effect: a signal, perhaps more actions, a watched card changing hands, and cards
        leaving while the triggers the action caused wait (TA.3), perhaps ending the phase before their turns."""
        s, on = self.source, self.on
        signal = "s1" if s.chance(25) else "s0"
        effect = [{"do": "signal", "name": signal}]
        effect += [a for a in (self.primitive(-1, scripted=True) for _ in range(s.count(0, 1))) if a]
        if s.chance(30) and self.watching_control and "gain_control" in on:  # a watched card changes hands
            card = self.objects_by_id[s.pick(self.watching_control)]
            holder = card.get("controller", card["owner"])
            effect.append({"do": "gain_control", "object": card["id"],
                           "player": s.pick([p for p in self.players if p != holder])})
        if s.chance(55) and "discards" in on:  # cards leave while the triggers the action caused wait (TA.3)
            # most often cards whose abilities that signal has just triggered
            listening = [o["id"] for o in self.objects if o["zone"] == "field" and any(
                a["trigger"] == {"event": "signal", "name": signal} for a in o["abilities"])]
            optional_listening = [c for c in listening if c in optional_in_play]
            effect += [{"do": "move", "object": s.pick(
                            optional_listening if optional_listening and s.chance(70) else
                            listening if listening and s.chance(60) else
                            optional_in_play if optional_in_play and s.chance(50) else in_play),
                        "to": "set_aside" if "set_aside" in on and s.chance(25) else "graveyard"}
                       for _ in range(1 + s.count(0, 1))]
            if s.chance(80) and "end_phase" in on:  # ... and the effect ends the phase before their turns
                effect.append({"do": "end_phase"})
        return effect

    def settle_one_ability(self) -> None:
        """The negate actions that name one ability (no draw): each names an ability of its card, a card with two
        abilities that trigger together first (negating one of them shows whether the other goes on)."""
        several = [o for o in self.objects if len(o["abilities"]) > 1]
        several = [o for o in several if o["abilities"][0]["trigger"] == o["abilities"][1]["trigger"]] or several
        for action, pick in self.one_ability:
            if several and len(self.objects_by_id[action["object"]]["abilities"]) < 2:
                action["object"] = several[self.card_ids().index(action["object"]) % len(several)]["id"]
            abilities = [a["id"] for a in self.objects_by_id[action["object"]]["abilities"]]
            if abilities:
                action["ability"] = abilities[pick % len(abilities)]

    def choices(self) -> dict[str, Any]:
        """The scenario's choices: a few abilities players prefer to resolve first, optional abilities declined."""
        s = self.source
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
        return choices


def build_scenario(source: ChoiceSource, edition: str, profile: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Redemption scenario document (without ``options``), a deterministic function of ``source``'s answers.

    ``profile`` (declared by an engine's adapter, see ``Engine.generation_profile``) restricts the scenarios to what
    the engine can play: ``{"exclude": [feature, ...]}`` with features from :data:`PROFILE_FEATURES` (see
    :data:`FEATURES`); an excluded feature is off in every scenario. The source is read the same way with or
    without a profile. Raises ValueError for a feature this ruleset does not have.
    """
    exclude = frozenset((profile or {}).get("exclude", ()))
    unknown = exclude - PROFILE_FEATURES
    if unknown:
        raise ValueError(f"unknown Redemption generation profile features: {sorted(unknown)}")
    return _Builder(source, edition, exclude).build()
