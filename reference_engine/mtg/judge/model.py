"""The judge's own reading of the MTG scenario vocabulary, written from the rule text and never from an engine.

Source: Magic: The Gathering Comprehensive Rules, edition 2026-02-27 (../shared/rules/mtg-cr-603.txt); the rule
numbers below are that edition's. Nothing here is shared with a reference engine: the engines keep their own
reading, and a bug in one of them is therefore visible to the judge.

Three pieces:

* :class:`Board`: a snapshot of what a trace lets the judge replay (where each object is, who controls it, life,
  damage marked, the players who have left). ``Board.step(event)`` moves it along one trace event.
* :class:`Reading`: the fixed facts of one scenario and what its vocabulary means under the rules: whether a
  condition is true (603.4, 603.8, 704.5), which state-based actions apply (704.3, 704.5a, 704.5f/g as modelled),
  which object abilities a group of simultaneous events triggers (603.2, 603.2c, 603.2g, 603.6a, 603.10), whether a
  state trigger is due (603.8), APNAP order (101.4) and 603.3b's two passes.
* :class:`Watch`: one delayed (603.7) or reflexive (603.12) triggered ability, tracking the object it names (603.7c,
  400.7).

Readings made here where the text needs one (listed again in reference_engine/mtg/docs.md):

* Looking back (603.10): for an event in which an object leaves the battlefield, leaves a graveyard, or goes from a
  zone every player sees into a hand or a library (603.10a), both whether an ability of the matching kind triggers
  and its intervening "if" (603.4) are judged on the game as it was just before the event (the intervening "if"
  just after it under option ``leaves_intervening_if=after-event``); an ability triggering on a card put into a zone
  "from anywhere" is of no such kind (603.6c, :func:`looks_back_for`). Everything else is judged just after.
* "You" in an intervening "if" (a condition's player ``controller``) is the ability's controller, fixed as it
  triggered (603.3a, 603.7d-e), on the event and on resolution alike (603.4).
* The intervening "if" (603.4) applies to every triggered ability: object abilities, state triggers (their
  ``intervening_if`` must hold with their state) and delayed and reflexive abilities. A delayed ability whose
  condition is false on an occurrence does not trigger on it; one without a duration keeps waiting for the next.
* Control does not outlive the battlefield (400.7, 108.4a): off the battlefield an object is its owner's, whatever
  control it had there or was given since; it enters the battlefield under its owner's control (110.2). So an
  ability working from a graveyard, or of a card that comes back, is its owner's (603.3a); a look-back trigger
  (603.10a) still gets the controller the permanent had just before it left.
* A "you control" / "an opponent controls" trigger filter reads the owner of an object off the battlefield (108.4a),
  or, under option ``controller_off_battlefield``, the controller it had as it last left the battlefield, or no one.
* A "do this only once each turn" action (603.2h) is taken as an instance begins resolving unless declined, or, under
  option ``once_each_turn_taken``, even if declined, or only once its effect does something.
* A player who has left the game (800.4a) controls nothing that triggers; the objects they own leave in the same
  event as their departure, and control effects giving them objects end in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FIELD = "field"  # the battlefield
OUT_OF_GAME = "removed"  # where the objects of a player who leaves go (800.4a)
UNCREATED = "uncreated"  # a token not created yet: it is nowhere, and only being created moves it (603.6a)
DEFAULT_LIFE = 20
PUBLIC_ZONES = frozenset({"field", "graveyard", "exile", "set_aside"})  # zones every player sees
HIDDEN_DESTINATIONS = frozenset({"hand", "deck"})
ZONE_CHANGE_KINDS_ORDERED = ("enter", "leave", "move", "cast", "countered")  # cast: to the stack; countered: off it
ZONE_CHANGE_KINDS = frozenset(ZONE_CHANGE_KINDS_ORDERED)
# The trace event types Board.step reads: a group of any other (a signal, an ability triggering or going on the stack,
# a cast...) leaves the board as it was
BOARD_KINDS = ZONE_CHANGE_KINDS | {"damage", "life", "control", "player_leaves"}
# trigger event -> the trace event types it listens to: "dealt_damage" ("whenever this is dealt damage") hears damage
def dealt_to(event: dict[str, Any]) -> dict[str, Any]:
    """Damage to a permanent read from the permanent's side (120.3): its subject the permanent dealt damage."""
    return {**event, "subject": event.get("target")}


HEARD = {"zone_change": ZONE_CHANGE_KINDS_ORDERED, "dealt_damage": ("damage",)}


def working_zones(spec: dict[str, Any]) -> tuple[str, ...]:
    """Where an ability's source must be for the ability to trigger (the battlefield unless stated)."""
    return tuple(spec.get("active_in") or (FIELD,))


def looks_back(event: dict[str, Any]) -> bool:
    """603.10a: is ``event`` one for which the game looks back in time? A permanent leaving the battlefield, a card
    leaving a graveyard, or an object all players can see going into a hand or a library."""
    if event["type"] == "leave":
        return True
    if event["type"] != "move":
        return False
    origin, destination = event.get("from"), event.get("to")
    if origin == "graveyard" and destination != "graveyard":
        return True
    return origin in PUBLIC_ZONES and destination in HIDDEN_DESTINATIONS


def looks_back_for(trigger: dict[str, Any], event: dict[str, Any]) -> bool:
    """Whether an ability with trigger condition ``trigger`` judges ``event`` on the game just before it (603.10a).
    603.10a names kinds of abilities, not kinds of events: the game looks back for

    * a leaves-the-battlefield ability (``leave``, or a zone change ``from`` the battlefield) on a permanent leaving
      the battlefield; an ability triggering when a card is put into a zone "from anywhere" (a zone change or move
      that names a ``to`` and no ``from``) is never one, even for a permanent leaving the battlefield (603.6c);
    * an ability triggering on a card leaving a graveyard (``from: graveyard``) on a card leaving one, onto the
      battlefield too unless the ability asks for the battlefield as destination (603.6a);
    * an ability triggering on an object being put into a hand or a library (``to`` a hand or the library) on an
      object every player sees going there.

    A zone change or move naming neither zone hears every zone change, so each occurrence looks back when it is of
    one of those kinds (:func:`looks_back`; a card put onto the battlefield from a graveyard leaves the graveyard).
    An ability triggering on entering the battlefield looks forward (603.6a); any other kind of ability looks back
    on the events of :func:`looks_back`."""
    kind = trigger.get("event")
    origin, destination = event.get("from"), event.get("to")
    if kind == "enter":
        return False
    if kind == "leave":
        return event["type"] == "leave"
    if kind not in ("zone_change", "move"):
        return looks_back(event)
    named_from, named_to = trigger.get("from"), trigger.get("to")
    if named_from is None and named_to is None:
        return looks_back(event) or (kind == "zone_change" and event["type"] == "enter" and origin == "graveyard")
    if named_to == FIELD:
        return False
    if named_from == FIELD:
        return origin == FIELD and destination != FIELD
    if named_from == "graveyard" and origin == "graveyard" and destination != "graveyard":
        return True
    return named_to in HIDDEN_DESTINATIONS and origin in PUBLIC_ZONES and destination in HIDDEN_DESTINATIONS


@dataclass
class Board:
    """What the judge knows of the game at one moment. ``departed`` lists the players who left, in order.

    ``controller_of`` is who controls each object: off the battlefield, always its owner (108.4a: a card that is
    neither a permanent nor a spell has no controller, and its owner answers for it). ``owner_of`` is fixed for the
    game and shared by every clone."""

    where: dict[str, str]
    controller_of: dict[str, str]
    life: dict[str, int]
    damage: dict[str, int] = field(default_factory=dict)
    departed: tuple[str, ...] = ()
    last_controller: dict[str, str] = field(default_factory=dict)  # who controlled it as it last left the battlefield
    owner_of: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def opening(scenario: dict[str, Any]) -> "Board":
        """The game before the script: an object's ``controller`` (else its owner) controls it on the battlefield,
        its owner anywhere else (108.4a)."""
        totals = scenario.get("life") or {}
        return Board(
            where={o["id"]: o["zone"] for o in scenario["objects"]},
            controller_of={o["id"]: (o.get("controller") or o["owner"]) if o["zone"] == FIELD else o["owner"]
                           for o in scenario["objects"]},
            life={p: totals.get(p, DEFAULT_LIFE) for p in scenario["players"]},
            owner_of={o["id"]: o["owner"] for o in scenario["objects"]},
        )

    def clone(self) -> "Board":
        return Board(dict(self.where), dict(self.controller_of), dict(self.life), dict(self.damage), self.departed,
                     dict(self.last_controller), self.owner_of)

    def present(self, player: str | None) -> bool:
        return player is not None and player not in self.departed

    def step(self, event: dict[str, Any]) -> None:
        """Apply one trace event. A prevented or replaced event did not happen (603.2g) and changes nothing.

        Control does not outlive the battlefield. An object leaving it becomes a new object (400.7): the control
        effects on the old one end, and its owner answers for it (108.4a); who controlled it as it left is kept in
        ``last_controller``. An object entering the battlefield enters under its owner's control (110.2: the
        scenario's moves are read as its owner's). A control change of an object off the battlefield gives no
        control (108.4a)."""
        if event.get("prevented"):
            return
        kind = event["type"]
        if kind in ZONE_CHANGE_KINDS:
            thing, destination = event.get("subject"), event.get("to")
            if thing in self.where and destination:
                if self.where[thing] == FIELD and destination != FIELD:
                    self.damage.pop(thing, None)  # 400.7: a new object, with no damage marked
                    if thing in self.controller_of:
                        self.last_controller[thing] = self.controller_of[thing]
                if thing in self.owner_of:
                    self.controller_of[thing] = self.owner_of[thing]
                self.where[thing] = destination
        elif kind == "damage":
            amount = event.get("amount", 0)
            if event.get("target") in self.where:
                self.damage[event["target"]] = self.damage.get(event["target"], 0) + amount
            elif event.get("player") in self.life:
                self.life[event["player"]] -= amount
        elif kind == "life":
            if event.get("player") in self.life:
                self.life[event["player"]] += event.get("amount", 0)
        elif kind == "control":
            if event.get("subject") in self.controller_of and event.get("controller") and \
                    self.where.get(event["subject"]) == FIELD:
                self.controller_of[event["subject"]] = event["controller"]
        elif kind == "player_leaves":
            if event.get("player") and event["player"] not in self.departed:
                self.departed = self.departed + (event["player"],)


@dataclass(frozen=True)
class Hit:
    """One object ability triggered by one event occurrence: ``event`` (the trace entry), the ``source`` object,
    the ability ``spec`` and its ``controller`` when it triggered (603.3a)."""

    event: dict[str, Any]
    source: str
    spec: dict[str, Any]
    controller: str


class Reading:
    """One scenario read through the rules, under the resolved ruleset ``options`` (default: the scenario's own).
    Built once per trace; it never changes afterwards. An option is read only where its readings disagree, so that
    a check reads it only on the traces it can matter to."""

    def __init__(self, scenario: dict[str, Any], options: Any = None):
        self.scenario = scenario
        self.options = options if options is not None else (scenario.get("options") or {})
        self.players: list[str] = list(scenario["players"])
        self.active_player: str = scenario["active_player"]
        self.objects: dict[str, dict[str, Any]] = {o["id"]: o for o in scenario["objects"]}
        self.owner_of: dict[str, str] = {o["id"]: o["owner"] for o in scenario["objects"]}
        self.seat: dict[str, int] = {o["id"]: n for n, o in enumerate(scenario["objects"])}
        # The objects :meth:`lethal` can find dying with no damage marked (toughness 0 or less, or a ``dies_when``):
        # a state-based-action check looks at the others only when they have damage marked.
        self.fragile: frozenset[str] = frozenset(
            o["id"] for o in scenario["objects"] if o.get("toughness", 1) <= 0 or "dies_when" in o)
        self.printed: dict[tuple[str, str], dict[str, Any]] = {}
        self.listeners: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        self.state_watchers: list[tuple[str, dict[str, Any]]] = []
        for o in scenario["objects"]:
            for spec in o.get("abilities") or ():
                self.printed[(o["id"], spec["id"])] = spec
                kind = spec["trigger"]["event"]
                if kind == "state":
                    self.state_watchers.append((o["id"], spec))
                else:  # "zone_change" listens to every zone change: onto, off and outside the battlefield
                    for heard in HEARD.get(kind, (kind,)):
                        self.listeners.setdefault(heard, []).append((o["id"], spec))
        self.made: dict[str, dict[str, Any]] = {}  # delayed and reflexive abilities an effect can create, by id
        self.made_by_kind: dict[str, str] = {}  # their id -> "create_delayed" or "reflexive"
        pending = [spec.get("effect") or [] for spec in self.printed.values()]
        pending += [a["effect"] for step in scenario["script"] for a in step["actions"]]
        pending += [o["spell"].get("effect") or [] for o in scenario["objects"] if o.get("spell")]  # 603.7d
        while pending:
            for action in pending.pop():
                if action.get("do") in ("create_delayed", "reflexive"):
                    spec = action["ability"]
                    if spec["id"] not in self.made:
                        self.made[spec["id"]] = spec
                        self.made_by_kind[spec["id"]] = action["do"]
                        pending.append(spec.get("effect") or [])
        watched_kinds = {s["trigger"]["event"] for s in self.printed.values()}
        watched_kinds |= {s["trigger"]["event"] for s in self.made.values()}
        self.hears_triggering = "ability_triggered" in watched_kinds
        self.hears_stacking = "ability_stacked" in watched_kinds
        self.hears_resolving = "resolved" in watched_kinds
        # 603.2d: permanents making abilities trigger additional times, in scenario order
        self.extra_sources: list[tuple[str, dict[str, Any]]] = [
            (o["id"], o["additional_triggers"]) for o in scenario["objects"] if o.get("additional_triggers")]

    # -- Abilities -------------------------------------------------------------------------------------------------

    def ability(self, source: str, ability_id: str, delayed: bool = False) -> dict[str, Any] | None:
        """The ability a trigger instance stands for: a printed one by (source, id), a created one by id."""
        return self.made.get(ability_id) if delayed else self.printed.get((source, ability_id))

    def apnap(self, departed=(), active: str | None = None) -> list[str]:
        """101.4: the active player (``active``, else turn 1's), then the others in turn order (the order of
        ``players``); leavers skipped."""
        k = self.players.index(active or self.active_player)
        return [p for p in self.players[k:] + self.players[:k] if p not in departed]

    @staticmethod
    def second_pass(spec: dict[str, Any] | None, membership: str) -> bool:
        """603.3b (2026-02-27): whether an ability belongs to the second part of the process, its trigger condition
        being another ability triggering (and, under ``triggering-or-stacking``, one being put on the stack)."""
        if spec is None:
            return False
        kind = spec["trigger"]["event"]
        if kind == "ability_triggered":
            return True
        return kind == "ability_stacked" and membership == "triggering-or-stacking"

    # -- Conditions ------------------------------------------------------------------------------------------------

    def _player(self, named: str | None, board: Board, source: str | None, you: str | None = None) -> str | None:
        if named in (None, "controller"):
            if you is not None:
                return you
            return board.controller_of.get(source) or self.owner_of.get(source)
        return named

    def true_on(self, condition: dict[str, Any] | None, board: Board, source: str | None,
                you: str | None = None) -> bool:
        """Whether ``condition`` is true on ``board`` for an ability of ``source``; no condition is always true.
        The condition's player ``controller`` ("you") is ``you``, the controller of the triggered ability it belongs
        to, fixed as it triggered (603.3a; 603.7d-e for a delayed or reflexive one) whoever controls the source when
        the condition is read (603.4: on the event, and again on resolution); without ``you`` (a state trigger not
        yet triggered, a permanent's ``dies_when``) it is whoever controls ``source`` on ``board``, its owner off the
        battlefield (108.4a). Raises ValueError on a test the judge does not know."""
        if not condition:
            return True
        test = condition["test"]
        if test in ("in_zone", "not_in_zone"):
            named = condition.get("object", "self")
            thing = source if named == "self" else named
            there = board.where.get(thing) == condition["zone"]
            return there == (test == "in_zone")
        player = self._player(condition.get("player"), board, source, you)
        total = board.life.get(player, DEFAULT_LIFE)
        if test == "life_at_least":
            return total >= condition["value"]
        if test == "life_at_most":
            return total <= condition["value"]
        if test == "zone_empty":
            zone = condition.get("zone", "hand")
            return all(not (self.owner_of.get(o) == player and z == zone) for o, z in board.where.items())
        raise ValueError(f"the MTG judge does not know the condition test {test!r}")

    # -- State-based actions (704.3; 704.5a, 704.5f, 704.5g as modelled) --------------------------------------------

    def lethal(self, thing: str, board: Board) -> bool:
        """704.5g: damage marked at least equal to toughness (1 unless stated); 704.5f stands as ``dies_when``."""
        card = self.objects.get(thing) or {}
        if board.damage.get(thing, 0) >= card.get("toughness", 1):
            return True
        return "dies_when" in card and self.true_on(card["dies_when"], board, thing)

    def due_sbas(self, board: Board) -> tuple[list[str], list[str]]:
        """What one state-based-action check must perform on ``board``: (permanents that go to their owner's
        graveyard, in scenario order; players still in the game who lose, at 0 or less life, 704.5a)."""
        damage, fragile = board.damage, self.fragile
        dying = sorted((t for t, z in board.where.items()
                        if z == FIELD and (t in damage or t in fragile) and self.lethal(t, board)),
                       key=lambda t: self.seat.get(t, len(self.seat))) if damage or fragile else []
        losing = [p for p in self.players if board.present(p) and board.life.get(p, DEFAULT_LIFE) <= 0]
        return dying, losing

    def departure(self, player: str, board: Board, moving: set[str]) -> tuple[set[str], set[str]]:
        """800.4a: (objects the leaving player owns that leave the game, objects whose control returns to their
        owners), ``moving`` being objects already moving elsewhere in the same event."""
        owned = {t for t, z in board.where.items()
                 if self.owner_of.get(t) == player and z not in (OUT_OF_GAME, UNCREATED) and t not in moving}
        returned = {t for t, c in board.controller_of.items()
                    if c == player and self.owner_of.get(t) != player and t not in moving}
        return owned, returned

    # -- Triggering ---------------------------------------------------------------------------------------------------

    def fits(self, pattern: dict[str, Any], event: dict[str, Any], source: str | None) -> bool:
        """Whether ``event`` is a trigger event of ``pattern`` (an ability of ``source``). A prevented event is no
        event (603.2g). A ``combat`` filter reads the damage event's own mark: combat damage or not (120.2a-b)."""
        if event.get("prevented"):
            return False
        if "combat" in pattern and (event.get("type") != "damage" or pattern["combat"] != bool(event.get("combat"))):
            return False  # "deals combat damage" / "noncombat damage" (120.2a-b, 510.2)
        wanted_kind = pattern.get("event")
        if wanted_kind == "dealt_damage":  # 120.3: the event is about the permanent dealt damage
            if event.get("type") != "damage" or event.get("target") is None:
                return False
            event = dealt_to(event)
        elif not (wanted_kind == event.get("type") or (wanted_kind == "zone_change" and event.get("type") in
                                                       ZONE_CHANGE_KINDS)):
            return False
        if "name" in pattern and event.get("name") != pattern["name"]:
            return False
        for edge in ("from", "to"):
            if edge in pattern and event.get(edge) != pattern[edge]:
                return False
        about = event.get("subject")
        wanted = pattern.get("subject", "any")
        if wanted == "any":
            return True
        if wanted == "self":
            return about is not None and about == source
        if wanted == "other":
            return about is not None and about != source
        return about == wanted

    def hits(self, group: list[dict[str, Any]], before: Board, after: Board) -> list[Hit]:
        """Every object ability a group of simultaneous events triggers, once per occurrence (603.2c; once per
        group for a "one or more" ability), each repeated for its additional times (603.2d).

        For each occurrence the game is judged just after the group, or just before it when the occurrence looks
        back (603.10): the source must be where its ability works and its controller still in the game (800.4a),
        and its intervening "if" must be true (603.4) on that same board.
        """
        found: list[Hit] = []
        for event in group:
            if event.get("prevented"):
                continue
            for source, spec in self.listeners.get(event["type"], ()):
                if not self.fits(spec["trigger"], event, source):
                    continue
                board = before if looks_back_for(spec["trigger"], event) else after
                if board.where.get(source) not in working_zones(spec):
                    continue
                controller = board.controller_of.get(source) or self.owner_of[source]
                if not after.present(controller) or not board.present(controller):
                    continue
                if not self.passes_filters(spec["trigger"], event, controller, board):
                    continue
                if not self.condition_at_trigger(spec, source, board, after, controller):
                    continue
                found.append(Hit(event, source, spec, controller))
        return self.counted(self.once_per_event(found), before, after)

    def condition_at_trigger(self, spec: dict[str, Any], source: str | None, board: Board, after: Board,
                             you: str | None = None) -> bool:
        """603.4: whether ability ``spec``'s intervening "if" (none: always) holds when its trigger event occurs,
        ``board`` being the game the trigger is judged on (``after``, or the game just before an event that looks
        back, 603.10a). For a look-back, option ``leaves_intervening_if`` says which game the condition is read on:
        ``look-back`` that same game, ``after-event`` the game just after the event (read only when they disagree).
        ``you`` is the ability's controller as it triggers (see :meth:`true_on`)."""
        condition = spec.get("intervening_if")
        if not condition:
            return True
        held = self.true_on(condition, board, source, you)
        if board is after:
            return held
        later = self.true_on(condition, after, source, you)
        if held == later:
            return held
        return later if self.options.get("leaves_intervening_if", "look-back") == "after-event" else held

    # -- How many times (603.2c "one or more", 603.2d additional times) -------------------------------------------------

    @staticmethod
    def once_per_event(found: list[Hit]) -> list[Hit]:
        """603.2c: an ability that triggers on "one or more" objects triggers once per event, however many of its
        simultaneous occurrences match (kept: the first matching occurrence); any other, once per occurrence."""
        seen: set[tuple[str, str]] = set()
        out: list[Hit] = []
        for hit in found:
            if hit.spec["trigger"].get("batch"):
                if (hit.source, hit.spec["id"]) in seen:
                    continue
                seen.add((hit.source, hit.spec["id"]))
            out.append(hit)
        return out

    def extra_times(self, hit: Hit, board: Board) -> int:
        """603.2d: how many additional times ``hit`` triggers: the sum of ``times`` over the permanents with
        ``additional_triggers`` on the battlefield of ``board`` (the game the trigger is judged on), controlled by
        the ability's controller, whose ``event`` (if any) is the event's type, provided the ability's source is a
        permanent there too. Several such effects add up; none applies to another or to itself twice."""
        if board.where.get(hit.source) != FIELD:
            return 0
        total = 0
        for holder, extra in self.extra_sources:
            if board.where.get(holder) != FIELD or board.controller_of.get(holder) != hit.controller:
                continue
            if extra.get("event") not in (None, hit.event["type"]):
                continue
            total += extra["times"]
        return total

    def counted(self, found: list[Hit], before: Board, after: Board) -> list[Hit]:
        """Each hit repeated once plus its 603.2d additional times (object abilities only: a delayed or reflexive
        ability never goes through here, 603.2d's last sentence)."""
        out: list[Hit] = []
        for hit in found:
            board = before if looks_back_for(hit.spec["trigger"], hit.event) else after
            out += [hit] * (1 + self.extra_times(hit, board))
        return out

    def passes_filters(self, pattern: dict[str, Any], event: dict[str, Any], you: str, board: Board) -> bool:
        """Whether ``event`` gets past the filters of a printed trigger condition, ``you`` being the ability's
        controller as it triggers (603.3a) and ``board`` the game the event is judged on (603.10a).

        * ``controller`` (``you`` / ``opponent``): "a ... you control", "a ... an opponent controls": who controls
          the event's object; for an object off the battlefield, option ``controller_off_battlefield`` (see
          :meth:`off_battlefield_matches`).
        * ``player`` (``you`` / ``opponent``): the player the event happens to (life, damage to a player, leaving
          the game) or, for a triggering or stacked ability, its controller.
        * ``owner`` (``you`` / ``opponent``): "a card you own", "put into your graveyard" (a card goes only to its
          owner's graveyard, 400.3): who owns the event's object (108.3), whoever controls it.
        * ``type``: "a creature", "an artifact": among the object's ``types`` (205.2a).
        * ``nontoken``: the object is not a token (111.1).
        * ``change: gain``: "gains life": a life event with a positive amount (119.3; losing life to damage is a
          damage event in this vocabulary, so no "loses life" filter is offered).
        """
        thing = event.get("target") if pattern.get("event") == "dealt_damage" else event.get("subject")
        printed = self.objects.get(thing) if thing is not None else None
        relations = []
        if "controller" in pattern:
            if printed is None:
                return False
            if board.where.get(thing) == FIELD:
                relations.append((pattern["controller"], board.controller_of.get(thing)))
            elif not self.off_battlefield_matches(pattern["controller"], thing, you, board):
                return False
        if "player" in pattern:
            relations.append((pattern["player"], event.get("player")))
        if "owner" in pattern:  # who owns it, wherever it is and whoever controls it (108.3)
            if printed is None:
                return False
            relations.append((pattern["owner"], self.owner_of[thing]))
        for relation, who in relations:
            if who not in self.players:
                return False
            if (who == you) != (relation == "you"):
                return False
        if "type" in pattern and pattern["type"] not in ((printed or {}).get("types") or ()):
            return False
        if pattern.get("nontoken") and (printed is None or printed.get("token") is True):
            return False
        if pattern.get("change") == "gain":
            return event.get("type") == "life" and (event.get("amount") or 0) > 0
        return True

    def off_battlefield_matches(self, relation: str, thing: str, you: str, board: Board) -> bool:
        """Whether object ``thing``, not on the battlefield of ``board``, is controlled by ``you`` (``relation``
        ``you``) or by an opponent (``opponent``), under option ``controller_off_battlefield``: ``owner`` its owner
        (108.4a), ``last-known`` the controller it had as it last left the battlefield (its owner if it never was
        there), ``none`` no one (the filter fails). The option is read only when its readings disagree."""
        def relative(who: str | None) -> bool:
            return who in self.players and (who == you) == (relation == "you")

        owner = self.owner_of[thing]
        answers = {"owner": relative(owner), "last-known": relative(board.last_controller.get(thing) or owner),
                   "none": False}
        if len(set(answers.values())) == 1:
            return answers["owner"]
        return answers[self.options.get("controller_off_battlefield", "owner")]

    def state_due(self, source: str, spec: dict[str, Any], board: Board) -> bool:
        """603.8 with 603.4: the source is where the ability works, its controller is in the game, its state is
        true, and so is its intervening "if"."""
        if board.where.get(source) not in working_zones(spec):
            return False
        if not board.present(board.controller_of.get(source)):
            return False
        return self.true_on(spec["trigger"]["state"], board, source) and \
            self.true_on(spec.get("intervening_if"), board, source)

    # -- Targets (115.1, 603.3d, 608.2b) ------------------------------------------------------------------------------

    def target_is_legal(self, spec: dict[str, Any], chosen: str | None, board: Board) -> bool:
        """Whether ``chosen`` is a legal target of ability ``spec`` on ``board``: one of its candidate objects in its
        target zone (the battlefield unless stated), or one of its candidate players still in the game (800.4a)."""
        aim = spec.get("target") or {}
        if chosen is None:
            return False
        if chosen in (aim.get("players") or ()):
            return chosen in board.life and board.present(chosen)
        return chosen in (aim.get("candidates") or ()) and board.where.get(chosen) == aim.get("zone", FIELD)

    def legal_targets(self, spec: dict[str, Any], board: Board) -> list[str]:
        """603.3d: the targets ``spec`` may choose among on ``board``, candidate objects first, then players."""
        aim = spec.get("target") or {}
        offered = list(aim.get("candidates") or ()) + list(aim.get("players") or ())
        return [c for c in offered if self.target_is_legal(spec, c, board)]

    def named_object(self, spec: dict[str, Any], source: str) -> str | None:
        """The single object a delayed ability's trigger is about (603.7c), or None when it names none."""
        about = spec["trigger"].get("subject", "any")
        if about == "self":
            return source
        return about if about in self.objects else None


@dataclass
class Watch:
    """A delayed triggered ability waiting to trigger (603.7). ``follows`` is the object its trigger names and
    ``home`` the zone that object was in when the ability was created; once the object leaves that zone it is a
    new object (400.7) the ability no longer sees (603.7c)."""

    id: str
    spec: dict[str, Any]
    source: str
    controller: str
    duration: str | None
    follows: str | None
    home: str | None

    def occurrences(self, reading: Reading, group: list[dict[str, Any]], before: Board,
                    after: Board) -> list[dict[str, Any]]:
        """The occurrences of ``group`` this ability triggers on: its trigger event, about an object it still sees,
        with its intervening "if" true (603.4; judged before the event when the event looks back, 603.10)."""
        out = []
        for event in group:
            if not reading.fits(self.spec["trigger"], event, self.source):
                continue
            if self.follows is not None and before.where.get(self.follows) != self.home:
                continue
            board = before if looks_back_for(self.spec["trigger"], event) else after
            if reading.condition_at_trigger(self.spec, self.source, board, after, self.controller):
                out.append(event)
        return out

    def moved_on(self, after: Board) -> None:
        if self.follows is not None and after.where.get(self.follows) != self.home:
            self.home = None
