"""What the MTG scenario vocabulary means to the reference engine (the judge keeps its own reading, written from the
rule text, in reference_engine/mtg/judge/model.py).

One definition of: the game state a trace replays (zones, controllers, life, damage, players still in the game),
conditions (intervening "if" clauses, state triggers, toughness), state-based actions (704.5 as modelled), which
abilities an event triggers (603.2, 603.6a, 603.10a), and what a delayed triggered ability watches (603.7).
The engine plays with these; the invariants replay the trace with these and compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from reference_engine.common.vocabulary import AbilityIndex, movement_event, pattern_matches

BATTLEFIELD = "field"
UNCREATED = "uncreated"  # a token not created yet: it exists nowhere, and only create_token moves it
STARTING_LIFE = 20
ZONE_CHANGES = frozenset({"enter", "leave", "move", "cast", "countered"})  # cast: hand -> stack; countered: stack ->
PUBLIC_ZONES = frozenset({"field", "graveyard", "exile"})  # zones every player sees
HIDDEN_ZONES = frozenset({"hand", "deck"})


@dataclass
class Context:
    """Who is acting: a scripted action (``trigger`` None) or the resolution of trigger instance ``trigger``."""

    cause: dict[str, Any]
    source: str | None
    controller: str
    trigger: str | None = None
    target: str | None = None


def looks_back(event: dict[str, Any]) -> bool:
    """603.10a: is ``event`` one for which the game looks back in time to decide what it triggers? A permanent leaving
    the battlefield, a card leaving a graveyard, or an object every player can see (on the battlefield, in a
    graveyard or in exile) put into a hand or a library."""
    kind, origin, destination = event["type"], event.get("from"), event.get("to")
    if kind == "leave":
        return True
    if kind != "move":
        return False
    if origin == "graveyard" and destination != "graveyard":
        return True
    return origin in PUBLIC_ZONES and destination in HIDDEN_ZONES


def looks_back_at(trigger: dict[str, Any], event: dict[str, Any]) -> bool:
    """603.10a is about kinds of abilities: does an ability with trigger condition ``trigger`` look back in time for
    ``event``? Leaves-the-battlefield abilities (``leave``; a zone change ``from: field``) do for a permanent leaving
    the battlefield, abilities about a card leaving a graveyard (``from: graveyard``) for a card leaving one (onto
    the battlefield too, unless they ask for ``to: field``, 603.6a), abilities about a card put into a hand or library
    (``to: hand`` / ``deck``) for an object every player could see. A "from anywhere" ability (a ``to`` without a
    ``from``) is not a leaves-the-battlefield ability (603.6c): it looks forward for a permanent leaving. An ability
    naming neither zone goes by the event (:func:`looks_back`, and a card put onto the battlefield from a graveyard);
    enters-the-battlefield abilities look forward (603.6a)."""
    event_type, origin, destination = event["type"], event.get("from"), event.get("to")
    wanted = trigger["event"]
    if wanted == "leave":
        return event_type == "leave"
    if wanted == "enter":
        return False
    if wanted != "zone_change" and wanted != "move":
        return looks_back(event)
    if "from" not in trigger and "to" not in trigger:
        return looks_back(event) or (wanted == "zone_change" and event_type == "enter" and origin == "graveyard")
    if trigger.get("to") == BATTLEFIELD:
        return False
    if trigger.get("from") == BATTLEFIELD:
        return origin == BATTLEFIELD and destination != BATTLEFIELD
    if trigger.get("from") == "graveyard":
        if origin == "graveyard" and destination != "graveyard":
            return True
    if trigger.get("to") in HIDDEN_ZONES:
        return origin in PUBLIC_ZONES and destination in HIDDEN_ZONES
    return False


def active_zones(ability: dict[str, Any]) -> list[str]:
    return ability.get("active_in", [BATTLEFIELD])


@dataclass
class State:
    """The part of the game a trace can replay. ``left`` lists the players who have left, in order."""

    zones: dict[str, str]
    controllers: dict[str, str]
    life: dict[str, int]
    damage: dict[str, int] = field(default_factory=dict)
    left: list[str] = field(default_factory=list)
    # object -> who controlled it as it last left the battlefield (option controller_off_battlefield=last-known)
    last_controllers: dict[str, str] = field(default_factory=dict)
    # object -> its owner: fixed for the game, shared by every copy (never written)
    owners: dict[str, str] = field(default_factory=dict)

    @classmethod
    def initial(cls, scenario: dict[str, Any]) -> "State":
        """The game before the script: an object on the battlefield is controlled by its ``controller`` (its owner
        if none is given), any other object by its owner (108.4a)."""
        life = {p: scenario.get("life", {}).get(p, STARTING_LIFE) for p in scenario["players"]}
        return cls(
            zones={o["id"]: o["zone"] for o in scenario["objects"]},
            controllers={o["id"]: o.get("controller", o["owner"]) if o["zone"] == BATTLEFIELD else o["owner"]
                         for o in scenario["objects"]},
            life=life,
            owners={o["id"]: o["owner"] for o in scenario["objects"]},
        )

    def copy(self) -> "State":
        return State(dict(self.zones), dict(self.controllers), dict(self.life), dict(self.damage), list(self.left),
                     dict(self.last_controllers), self.owners)

    def apply(self, event: dict[str, Any]) -> None:
        """Move the state along one trace event (a prevented event changes nothing, 603.2g).

        Control does not outlive the battlefield: an object that leaves it is a new object the control effects on
        the old one no longer touch (400.7), controlled by no one, its owner standing in (108.4a); one that enters
        it enters under its owner's control (110.2, the scenario's moves being its owner's); a control change of an
        object off the battlefield gives no control. Who controlled it as it left is kept (``last_controllers``)."""
        if event.get("prevented"):
            return
        kind = event["type"]
        subject = event.get("subject")
        if kind in ZONE_CHANGES and subject in self.zones and event.get("to"):
            if self.zones[subject] == BATTLEFIELD:
                self.damage.pop(subject, None)  # a permanent that leaves is a new object with no damage (400.7)
                if subject in self.controllers:
                    self.last_controllers[subject] = self.controllers[subject]
            owner = self.owners.get(subject)
            if owner is not None and self.controllers.get(subject) != owner:
                self.controllers[subject] = owner
            self.zones[subject] = event["to"]
        elif kind == "damage":
            if event.get("target") in self.zones:
                self.damage[event["target"]] = self.damage.get(event["target"], 0) + event.get("amount", 0)
            elif event.get("player") in self.life:
                self.life[event["player"]] -= event.get("amount", 0)
        elif kind == "life" and event.get("player") in self.life:
            self.life[event["player"]] += event.get("amount", 0)
        elif kind == "control" and subject in self.controllers and event.get("controller") and \
                self.zones.get(subject) == BATTLEFIELD:
            self.controllers[subject] = event["controller"]
        elif kind == "player_leaves" and event.get("player") and event["player"] not in self.left:
            self.left.append(event["player"])


def _event_types(pattern: dict[str, Any]) -> Iterable[str]:
    """The event types a trigger pattern can be satisfied by: ``zone_change`` by any of the three zone changes."""
    return ZONE_CHANGES if pattern["event"] == "zone_change" else (pattern["event"],)


def recipient_view(event: dict[str, Any]) -> dict[str, Any]:
    """A damage event to a permanent seen from the permanent dealt damage (120.3): type ``dealt_damage``, subject
    that permanent."""
    return {**event, "type": "dealt_damage", "subject": event.get("target")}


class Catalog:
    """Everything about a scenario that does not change during play, indexed once."""

    def __init__(self, scenario: dict[str, Any]):
        self.scenario = scenario
        self.options = scenario.get("options") or {}  # the playing Game may put its own mapping here
        self.players: list[str] = scenario["players"]
        self.active_player: str = scenario["active_player"]
        self.objects = {o["id"]: o for o in scenario["objects"]}
        self.owners = {o["id"]: o["owner"] for o in scenario["objects"]}
        self.order = {o["id"]: n for n, o in enumerate(scenario["objects"])}
        self.abilities: dict[tuple[str, str], dict[str, Any]] = {}
        self.state_abilities: list[tuple[str, dict[str, Any]]] = []
        for obj in scenario["objects"]:
            for ability in obj.get("abilities", ()):
                self.abilities[(obj["id"], ability["id"])] = ability
                if ability["trigger"]["event"] == "state":
                    self.state_abilities.append((obj["id"], ability))
        # indexed by event type, signal name and named subject: what an event is tested against (speed only)
        self.index = AbilityIndex(((obj["id"], ability) for obj in scenario["objects"] for ability in obj.get("abilities", ())
                                   if ability["trigger"]["event"] != "state"), self.objects, _event_types)
        self.created: dict[str, dict[str, Any]] = {}  # ability id -> spec, for delayed and reflexive abilities
        self._collect_created(scenario)
        kinds = {a["trigger"]["event"] for a in self.abilities.values()} | {
            a["trigger"]["event"] for a in self.created.values()}
        self.listens_triggered = "ability_triggered" in kinds
        self.listens_stacked = "ability_stacked" in kinds
        self.listens_resolved = "resolved" in kinds
        # 603.2d: objects whose static ability makes abilities trigger additional times
        self.multipliers = [(o["id"], o["additional_triggers"]) for o in scenario["objects"] if "additional_triggers" in o]

    def _collect_created(self, scenario: dict[str, Any]) -> None:
        def walk(actions):
            for action in actions:
                if action.get("do") in ("create_delayed", "reflexive"):
                    self.created.setdefault(action["ability"]["id"], action["ability"])
                    walk(action["ability"].get("effect", ()))
        for ability in self.abilities.values():
            walk(ability.get("effect", ()))
        for step in scenario["script"]:
            for action in step["actions"]:
                walk(action["effect"])
        for obj in scenario["objects"]:  # a spell's delayed abilities (603.7d)
            walk((obj.get("spell") or {}).get("effect", ()))

    def spec(self, source: str, ability: str, delayed: bool = False) -> dict[str, Any] | None:
        """The ability a trigger instance comes from: an object's ability, or a delayed/reflexive one by id."""
        if delayed:
            return self.created.get(ability)
        return self.abilities.get((source, ability))

    def next_active(self, left: list[str] | tuple = ()) -> str:
        """500.1, 101.4: the player whose turn comes after the active player's, in turn order (the order of
        ``players``), skipping players who left the game (800.4a)."""
        start = self.players.index(self.active_player)
        seats = self.players[start + 1:] + self.players[:start + 1]
        return next((p for p in seats if p not in left), self.active_player)

    def apnap(self, left: list[str] | tuple = ()) -> list[str]:
        """Players still in the game in APNAP order (101.4): the active player's seat first, then turn order."""
        start = self.players.index(self.active_player)
        seats = self.players[start:] + self.players[:start]
        return [p for p in seats if p not in left]

    def in_second_pass(self, ability: dict[str, Any] | None, membership: str) -> bool:
        """603.3b: does this ability go on the stack in the second pass (it triggers on another ability)?"""
        if ability is None:
            return False
        kind = ability["trigger"]["event"]
        return kind == "ability_triggered" or (membership == "triggering-or-stacking" and kind == "ability_stacked")

    # -- Conditions ----------------------------------------------------------------------------------------------

    def holds(self, condition: dict[str, Any] | None, state: State, source: str | None,
              you: str | None = None) -> bool:
        """Evaluate a condition (intervening if, state trigger, dies_when) on ``state``. None always holds.

        Its player ``controller`` means "you": for an intervening "if", the triggered ability's controller ``you``,
        fixed when it triggered (603.3a, 603.7d-e), even if its source has changed control since (603.4 checks the
        condition again on resolution about that same player); with ``you`` None (a state trigger's state, a
        ``dies_when``), the current controller of ``source``."""
        if condition is None:
            return True
        test = condition["test"]
        if test in ("in_zone", "not_in_zone"):
            obj = source if condition.get("object", "self") == "self" else condition["object"]
            inside = state.zones.get(obj) == condition["zone"]
            return inside if test == "in_zone" else not inside
        player = condition.get("player", "controller")
        if player == "controller":
            player = you if you is not None else state.controllers.get(source, self.owners.get(source))
        if test == "life_at_least":
            return state.life.get(player, STARTING_LIFE) >= condition["value"]
        if test == "life_at_most":
            return state.life.get(player, STARTING_LIFE) <= condition["value"]
        if test == "zone_empty":
            zone = condition.get("zone", "hand")
            return not any(self.owners[o] == player and z == zone for o, z in state.zones.items())
        raise ValueError(f"unknown condition test {test!r}")

    # -- State-based actions (704.3, 704.5 as modelled) ------------------------------------------------------------

    def applicable_sbas(self, state: State) -> tuple[list[str], list[str]]:
        """(permanents to put into their owners' graveyards, players who lose), both in a stable order.

        A permanent dies when its marked damage reaches its toughness or its ``dies_when`` condition holds; a
        player still in the game loses at 0 or less life.
        """
        dying = []
        for obj_id, zone in state.zones.items():
            if zone != BATTLEFIELD:
                continue
            obj = self.objects.get(obj_id, {})
            if state.damage.get(obj_id, 0) >= obj.get("toughness", 1) or (
                "dies_when" in obj and self.holds(obj["dies_when"], state, obj_id)
            ):
                dying.append(obj_id)
        dying.sort(key=lambda o: self.order.get(o, 0))
        losing = [p for p in self.players if p not in state.left and state.life.get(p, STARTING_LIFE) <= 0]
        return dying, losing

    def leave_game_events(self, player: str, state: State, already: set[str]) -> list[dict[str, Any]]:
        """800.4a as event fields: the player leaves, the objects they own leave the game, and control effects
        giving them objects end (those objects return to their owners). ``already`` are objects moved in the
        same event."""
        events: list[dict[str, Any]] = [{"type": "player_leaves", "player": player}]
        for obj_id, zone in state.zones.items():
            if obj_id in already:
                continue
            if self.owners[obj_id] == player and zone not in ("removed", UNCREATED):
                events.append({"type": movement_event(zone, "removed"), "subject": obj_id, "from": zone, "to": "removed"})
            elif state.controllers.get(obj_id) == player and self.owners[obj_id] != player:
                events.append({"type": "control", "subject": obj_id, "controller": self.owners[obj_id]})
        return events

    # -- Triggering ------------------------------------------------------------------------------------------------

    def triggered_abilities(self, group: list[dict[str, Any]], before: State, after: State,
                            look_back: bool | Callable[[dict[str, Any], dict[str, Any]], bool] = True,
                            condition_looks_back: bool | Callable[[], bool] = True
                            ) -> Iterator[tuple[dict, str, dict, str]]:
        """(event, source, ability, controller) for every object ability a simultaneous group of events triggers.

        603.2/603.2c: once per occurrence; 603.2g: prevented events trigger nothing; 603.6a and 603.10: judged on the
        game just after the group, except for abilities that look back (:func:`looks_back_at`, 603.10a), judged on the
        game just before it so that objects leaving together see each other; 603.3a: the controller is the source's
        controller at that moment; 603.4: an intervening "if" must hold at that same moment (603.10: looking back
        too). Nothing triggers for a player who has left the game (800.4a).

        ``look_back`` (which abilities look back for which events: True for :func:`looks_back_at`, False for none,
        or a predicate of the trigger condition and the event) exists for the faulty engines.
        ``condition_looks_back`` says whether the intervening "if" of an ability judged by
        looking back is read on the game before the event too (True) or on the game after it (False), or is a
        callable answering that (option ``leaves_intervening_if``), asked only when the two games disagree.
        """
        looking_back = looks_back_at if look_back is True else (look_back or (lambda trigger, event: False))
        for event in group:
            if event.get("prevented"):
                continue
            for source, ability in self.candidates(event):
                if not self.pattern_matches(ability["trigger"], event, source):
                    continue
                state = before if looking_back(ability["trigger"], event) else after
                if state.zones.get(source) not in active_zones(ability):
                    continue
                controller = state.controllers.get(source)
                if controller in after.left:
                    continue
                if not self.filters_match(ability["trigger"], event, controller, state):
                    continue
                if "intervening_if" in ability and not self.condition_at_trigger(ability, source, state, after,
                                                                                  condition_looks_back, controller):
                    continue
                yield event, source, ability, controller

    def condition_at_trigger(self, ability: dict[str, Any], source: str | None, state: State, after: State,
                             looks_back_too: bool | Callable[[], bool] = True, you: str | None = None) -> bool:
        """603.4: whether an ability's intervening "if" (about ``you``, its controller) holds when its trigger event
        occurs, ``state`` being the game the trigger is judged on (``after`` itself, or the game just before an event
        that looks back, 603.10a). For a look-back, ``looks_back_too`` says whether the condition is read on that same game (True, option
        ``leaves_intervening_if=look-back``) or on ``after`` (False, ``after-event``); a callable is asked only when
        the two games disagree."""
        condition = ability.get("intervening_if")
        held = self.holds(condition, state, source, you)
        if state is after or looks_back_too is True:
            return held
        later = self.holds(condition, after, source, you)
        if held == later or looks_back_too is False:
            return later
        return held if looks_back_too() else later

    def candidates(self, event: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
        """The printed abilities ``event`` may trigger (a superset, in scenario order): those on its type, and for
        damage dealt to a permanent those on the permanent being dealt damage (``dealt_damage``), filed by it."""
        found = self.index.candidates(event)
        if event["type"] != "damage" or "target" not in event:
            return found
        dealt = list(self.index.candidates(recipient_view(event)))
        if not dealt:
            return found
        pairs = list(found) + dealt
        return sorted(pairs, key=lambda pair: (self.order[pair[0]], self.objects[pair[0]]["abilities"].index(pair[1])))

    @staticmethod
    def pattern_matches(pattern: dict[str, Any], event: dict[str, Any], source: str) -> bool:
        """The shared event pattern (type, name, subject) plus MTG's zone-change ``from``/``to``; ``dealt_damage``
        ("whenever this is dealt damage") is a damage event to a permanent, its subject the permanent dealt damage
        (120.3); ``combat`` true (false) hears only combat (noncombat) damage (120.2a-b, 510.2)."""
        if "combat" in pattern and (event["type"] != "damage" or bool(event.get("combat")) != pattern["combat"]):
            return False
        if pattern["event"] == "dealt_damage":
            if event["type"] != "damage" or "target" not in event or event.get("prevented"):
                return False
            return pattern_matches(pattern, recipient_view(event), source)
        if pattern["event"] == "zone_change" and event["type"] in ZONE_CHANGES:
            pattern = dict(pattern, event=event["type"])  # a zone change between any two zones
        if event.get("prevented") or not pattern_matches(pattern, event, source):
            return False
        if "to" in pattern and pattern["to"] != event.get("to"):
            return False
        return "from" not in pattern or pattern["from"] == event.get("from")

    def filters_match(self, pattern: dict[str, Any], event: dict[str, Any], you: str | None, state: State) -> bool:
        """The trigger filters of a printed ability whose controller is ``you`` (603.3a), on ``state`` (the game the
        event is judged on: just before it when it looks back, 603.10a). ``controller``: the event's object is
        controlled by you / an opponent (off the battlefield: :meth:`controlled_off_battlefield`); ``player``: the
        event's player is you / an opponent; ``owner``: the object is owned by you / an opponent (108.3); ``type``:
        the object has that card type (205.2a); ``nontoken``: it is a card (111.1); ``change`` ``gain``: life was
        gained (119.3). On ``dealt_damage`` the event's object is the permanent dealt damage."""
        if pattern["event"] == "dealt_damage":
            event = recipient_view(event)  # "a creature you control is dealt damage": the permanent dealt damage
        subject = event.get("subject")
        card = self.objects.get(subject)
        if "controller" in pattern:
            if card is None:
                return False
            if state.zones.get(subject) == BATTLEFIELD:
                if not self.relative_player(pattern["controller"], state.controllers.get(subject), you):
                    return False
            elif not self.controlled_off_battlefield(pattern["controller"], subject, you, state):
                return False
        if "player" in pattern and not self.relative_player(pattern["player"], event.get("player"), you):
            return False
        if "owner" in pattern and (card is None or not self.relative_player(pattern["owner"], self.owners[subject], you)):
            return False  # "a card you own", "put into your graveyard": ownership never changes (108.3)
        if "type" in pattern and (card is None or pattern["type"] not in card.get("types", ())):
            return False
        if pattern.get("nontoken") and (card is None or card.get("token", False)):
            return False
        return pattern.get("change") != "gain" or (event["type"] == "life" and event.get("amount", 0) > 0)

    def controlled_off_battlefield(self, relation: str, subject: str, you: str | None, state: State) -> bool:
        """``relation`` (``you`` / ``opponent``) for an object not on the battlefield, by option
        ``controller_off_battlefield``: ``owner`` (108.4a), ``last-known`` (its controller as it last left the
        battlefield; its owner if it never was there), ``none`` (no one: never). Read only where they disagree."""
        owner = self.owners[subject]
        answers = {"owner": self.relative_player(relation, owner, you),
                   "last-known": self.relative_player(relation, state.last_controllers.get(subject) or owner, you),
                   "none": False}
        if len(set(answers.values())) == 1:
            return answers["owner"]
        return answers[self.options.get("controller_off_battlefield", "owner")]

    def relative_player(self, relation: str, player: str | None, you: str | None) -> bool:
        """``you``: ``player`` is ``you``; ``opponent``: another player of the game (102.2, no teams)."""
        if player is None or player not in self.players:
            return False
        return player == you if relation == "you" else player != you

    def state_trigger_holds(self, source: str, ability: dict[str, Any], state: State) -> bool:
        """603.8: the source is in a zone where the ability works, its controller is in the game, the state holds;
        603.4: and its intervening "if", if any, holds too (a state trigger whose condition is false does not
        trigger)."""
        return (
            state.zones.get(source) in active_zones(ability)
            and state.controllers.get(source) not in state.left
            and self.holds(ability["trigger"]["state"], state, source)
            and self.holds(ability.get("intervening_if"), state, source)
        )

    def watched_object(self, ability: dict[str, Any], source: str) -> str | None:
        """The one object a delayed ability's trigger names (self or an id), tracked under 603.7c; else None."""
        subject = ability["trigger"].get("subject", "any")
        if subject == "self":
            return source
        return subject if subject in self.objects else None


@dataclass
class Delayed:
    """A delayed (603.7) or reflexive (603.12) triggered ability in play. ``home`` is the zone its watched object
    was in when it was created: once that object leaves it, it is a new object the ability no longer sees."""

    id: str
    ability: dict[str, Any]
    source: str
    controller: str
    created_by: str | None  # the trigger instance that created it; None: a spell did (603.7d)
    duration: str | None
    reflexive: bool
    watched: str | None
    home: str | None
    alive: bool = True
    born: int = 1  # the turn it was created in (a "next turn" ability works only in the turn after)

    def matches(self, catalog: Catalog, event: dict[str, Any], before: State) -> bool:
        if not catalog.pattern_matches(self.ability["trigger"], event, self.source):
            return False
        return self.watched is None or before.zones.get(self.watched) == self.home

    def condition_holds(self, catalog: Catalog, event: dict[str, Any], before: State, after: State,
                        looks_back_too: bool | Callable[[], bool] = True) -> bool:
        """603.4 for a delayed ability: its intervening "if" at its trigger event (just before an event that looks
        back, 603.10, unless ``looks_back_too`` says otherwise: see :meth:`Catalog.condition_at_trigger`). Its source
        is the source of the ability that created it (603.7d-e)."""
        if "intervening_if" not in self.ability:
            return True
        state = before if looks_back_at(self.ability["trigger"], event) else after
        return catalog.condition_at_trigger(self.ability, self.source, state, after, looks_back_too, self.controller)

    def track(self, after: State) -> None:
        if self.watched is not None and after.zones.get(self.watched) != self.home:
            self.home = None  # 603.7c, 400.7: the object it watched is gone for good
